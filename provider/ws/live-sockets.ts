/**
 * The provider's websockets (docs/product.md#calls-websockets): /ws/stock-updates and /ws/trade-updates. A client
 * authenticates its upgrade request with a bearer token like any call (refused with 401 before the
 * upgrade otherwise) and then receives every message published on the path's bus channel, from
 * whichever provider process published it. Nothing is read from clients. See ADR 0013.
 *
 * A token is good for a while only: a socket is closed with WS_CLOSE_UNAUTHORIZED when its token
 * expires (a timer at the expiry, and a check before every message, so nothing reaches it after),
 * and when a periodic re-check finds its token no longer accepted (e.g. its user was deleted).
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, WebSocket } from "ws";
import { WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "#contract/ws.ts";
import { WS_CLOSE_UNAUTHORIZED } from "#contract/ws-close-codes.ts";
import { STOCK_UPDATES_CHANNEL, TRADE_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import type { EventBus } from "#provider/bus/bus.ts";
import type { Caller } from "#provider/http/router.ts";

/** Which bus channel each websocket path relays. */
const LIVE_CHANNELS: Readonly<Record<string, string>> = {
  [WS_STOCK_UPDATES]: STOCK_UPDATES_CHANNEL,
  [WS_TRADE_UPDATES]: TRADE_UPDATES_CHANNEL,
};

export interface LiveSocketsOptions {
  bus: EventBus;
  /** The provider's bearer-token check (auth/callers.ts createAuthenticator). */
  authenticate(request: Request): Promise<Caller | undefined>;
  /** Keep-alive ping; a client that has not answered the previous one is dropped. */
  pingMs?: number | undefined;
  /** A client this far behind (bytes queued) is dropped rather than buffered without end. */
  maxBufferedBytes?: number | undefined;
  /** How often each client's token is checked again (its user may have been deleted); 60 s. */
  recheckMs?: number | undefined;
}

/** What a client was admitted with. */
interface Grant {
  authorization: string;
  /** When its token expires (ms since the epoch), if the authenticator says. */
  expiresAt: number | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** setTimeout waits at most 2^31-1 ms (24.8 days); a longer wait is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LiveSockets {
  /** Open client connections per path. */
  counts(): Record<string, number>;
  close(): Promise<void>;
}

/** Answers an upgrade request with a plain HTTP error and drops the socket. */
function refuseUpgrade(socket: Duplex, status: number, detail: string, headers: Record<string, string> = {}) {
  const reason =
    { 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 503: "Service Unavailable" }[status] ?? "Error";
  const body = JSON.stringify({ detail });
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  if (socket.writable) socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
  socket.destroy();
}

/** Serves the live paths on `server`'s upgrade requests; other paths get 404. */
export async function attachLiveSockets(server: Server, options: LiveSocketsOptions): Promise<LiveSockets> {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1024 });
  const clients = new Map<string, Map<WebSocket, Grant>>(Object.keys(LIVE_CHANNELS).map((path) => [path, new Map()]));
  const alive = new WeakSet<WebSocket>();
  const maxBuffered = options.maxBufferedBytes ?? 4 * 1024 * 1024;

  const unauthorized = (ws: WebSocket, reason: string) => {
    if (ws.readyState === WebSocket.OPEN) ws.close(WS_CLOSE_UNAUTHORIZED, reason);
  };
  const armExpiry = (ws: WebSocket, grant: Grant, expiresAt: number) => {
    grant.timer = setTimeout(
      () => {
        if (expiresAt > Date.now()) armExpiry(ws, grant, expiresAt);
        else unauthorized(ws, "Token expired");
      },
      Math.min(Math.max(0, expiresAt - Date.now()), MAX_TIMER_MS),
    );
    grant.timer.unref();
  };

  const unsubscribes = await Promise.all(
    Object.entries(LIVE_CHANNELS).map(([path, channel]) =>
      options.bus.subscribe(channel, (message) => {
        const text = JSON.stringify(message);
        // The expiry timer may run late (a busy event loop): nothing goes out on an expired token.
        const now = Date.now();
        for (const [client, grant] of clients.get(path)!) {
          if (client.readyState !== WebSocket.OPEN) continue;
          if (grant.expiresAt !== undefined && grant.expiresAt <= now) unauthorized(client, "Token expired");
          else if (client.bufferedAmount > maxBuffered) client.terminate();
          else client.send(text);
        }
      }),
    ),
  );

  const authenticate = (path: string, authorization: string | undefined) => {
    const headers = new Headers();
    if (authorization) headers.set("authorization", authorization);
    return options.authenticate(new Request(`http://provider.invalid${path}`, { headers }));
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const path = new URL(request.url ?? "/", "http://provider.invalid").pathname;
    const set = clients.get(path);
    if (!set) return refuseUpgrade(socket, 404, "Not Found");
    const authorization = request.headers.authorization ?? "";
    authenticate(path, authorization)
      .then((caller) => {
        if (!caller) return refuseUpgrade(socket, 401, "Not authenticated", { "WWW-Authenticate": "Bearer" });
        wss.handleUpgrade(request, socket, head, (ws) => {
          const grant: Grant = { authorization, expiresAt: caller.expiresAt, timer: undefined };
          set.set(ws, grant);
          if (grant.expiresAt !== undefined) armExpiry(ws, grant, grant.expiresAt);
          alive.add(ws);
          ws.on("pong", () => alive.add(ws));
          ws.on("close", () => {
            clearTimeout(grant.timer);
            set.delete(ws);
          });
          ws.on("error", () => ws.terminate());
        });
      })
      .catch((error: Error) => {
        console.error(`[ws] upgrade of ${path} failed: ${error.message}`);
        refuseUpgrade(socket, 503, "Live updates are unavailable right now");
      });
  };
  server.on("upgrade", onUpgrade);

  const pinger = setInterval(() => {
    for (const set of clients.values()) {
      for (const ws of set.keys()) {
        if (!alive.has(ws)) {
          ws.terminate();
          continue;
        }
        alive.delete(ws);
        ws.ping();
      }
    }
  }, options.pingMs ?? 30_000);
  pinger.unref();

  const rechecker = setInterval(() => {
    for (const [path, set] of clients) {
      for (const [ws, grant] of set) {
        authenticate(path, grant.authorization).then(
          (caller) => {
            if (!caller) unauthorized(ws, "Token no longer accepted");
          },
          () => {}, // the store is unreachable: keep the client; the next check decides
        );
      }
    }
  }, options.recheckMs ?? 60_000);
  rechecker.unref();

  return {
    counts() {
      return Object.fromEntries([...clients].map(([path, set]) => [path, set.size]));
    },
    async close() {
      clearInterval(pinger);
      clearInterval(rechecker);
      server.off("upgrade", onUpgrade);
      await Promise.all(unsubscribes.map((stop) => stop()));
      for (const set of clients.values()) for (const ws of set.keys()) ws.close(1001, "Provider shutting down");
      // Give the close frames a moment, then cut whoever is left.
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const set of clients.values()) for (const ws of set.keys()) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
