import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestListener, type FetchHandler } from "@remix-run/node-fetch-server";
import { createProvider, type Provider, type ProviderOptions } from "./app.ts";
import { createAuthenticator } from "./auth/callers.ts";
import { attachLiveSockets, type LiveSockets } from "./ws/live-sockets.ts";
import { BODY_STALL_SECONDS, bodyStalled } from "#contract/limits.ts";
import { watchForStall } from "#provider/http/body-stall.ts";

export interface RunningProvider {
  provider: Provider;
  server: Server;
  /** The websockets /ws/stock-updates and /ws/trade-updates. */
  live: LiveSockets;
  /** e.g. http://127.0.0.1:8000 */
  url: string;
  close(): Promise<void>;
}

/** Starts the provider API on a port (0 picks a free one). */
export async function startProviderServer(
  options: ProviderOptions & {
    port: number;
    host: string;
    /** How often open websockets' tokens are checked again (sign-out, password reset); 60 s. */
    liveRecheckMs?: number;
    /** Milliseconds a request body may stop arriving before the answer is 408; BODY_STALL_SECONDS. */
    bodyStallMs?: number;
  },
): Promise<RunningProvider> {
  const provider = await createProvider(options);
  const listener = createRequestListener(((request, client) =>
    provider.fetch(request, { clientAddress: client.address })) satisfies FetchHandler);
  const stallMs = options.bodyStallMs ?? BODY_STALL_SECONDS * 1000;
  const server = createServer((req, res) => {
    res.once("finish", () => dropUnreadBody(req));
    // A declared body that stops arriving is answered in seconds, as the app's server does (ADR 0072).
    if (req.method !== "GET" && req.method !== "HEAD") {
      watchForStall(req, res, stallMs, (stalled) => {
        const headers = { "content-type": "application/json", "cache-control": "no-store", connection: "close" };
        stalled.writeHead(408, headers).end(JSON.stringify({ detail: bodyStalled(stallMs / 1000) }));
      });
    }
    return listener(req, res);
  });
  const live = await attachLiveSockets(server, {
    bus: provider.context.bus,
    authenticate: createAuthenticator(provider.context.db, provider.context.tokens, provider.context.callers),
    recheckMs: options.liveRecheckMs,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    provider,
    server,
    live,
    url: `http://${host}:${port}`,
    async close() {
      await live.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await provider.close();
    },
  };
}

/** How long the rest of a refused upload is read (and dropped) so the client sees the answer. */
const LINGER_MS = 1_000;

/**
 * A request answered before its body ended (a 413 for a body past its limit): what still arrives
 * is dropped, not kept, and the connection closes when the client hangs up or LINGER_MS after the
 * answer. Closing at once would reset the connection and a client still sending would lose the answer.
 */
function dropUnreadBody(req: IncomingMessage): void {
  if (req.complete) return;
  req.removeAllListeners("data");
  req.on("data", () => {});
  req.resume();
  setTimeout(() => req.destroy(), LINGER_MS).unref();
}
