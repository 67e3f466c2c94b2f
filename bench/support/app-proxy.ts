/**
 * Passing a browser's requests and websockets on to the running app, as if they had reached the
 * app's own origin: the lighthouse bench's proxies (bench/spa/serve.ts, bench/script-free/serve.ts).
 */
import type { IncomingMessage, Server } from "node:http";
import { connect } from "node:net";

export interface AppTarget {
  url: URL;
  /** Where to connect: server.ts listens on 127.0.0.1 in the benches; "localhost" may resolve to ::1 first. */
  address: { host: string; port: number };
}

export function appTarget(): AppTarget {
  const url = new URL(process.env.APP_URL ?? "http://localhost:3000");
  return { url, address: { host: process.env.APP_HOST ?? "127.0.0.1", port: Number(url.port) } };
}

/** The browser's request headers as the app would see them from its own origin. */
export function appHeaders(target: AppTarget, req: IncomingMessage): Record<string, string | string[] | undefined> {
  return { ...req.headers, host: target.url.host, ...(req.headers.origin ? { origin: target.url.origin } : {}) };
}

/** Websocket upgrades (live prices) go to the app unchanged. */
export function proxyUpgrades(server: Server, target: AppTarget): void {
  server.on("upgrade", (req, socket, head) => {
    const upstream = connect(target.address.port, target.address.host, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (const [name, value] of Object.entries(appHeaders(target, req))) {
        for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) lines.push(`${name}: ${one}`);
      }
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
}
