/**
 * Same-origin live updates for the browser (DESIGN.md "live data", ADR 0013): server.ts hands
 * every upgrade request to `handleUpgrade`. For each live path there is ONE upstream websocket to
 * the provider per app process, fanned out to all the browsers of this process.
 *
 * * A browser is admitted only with a signed-in session (`authenticate` → the provider token);
 *   otherwise 401 before the upgrade. A cross-site Origin is refused with 403.
 * * The upstream connection is opened with the bearer token of a signed-in browser (the newest
 *   one), on demand, and kept while browsers want it (plus `idleMs`).
 * * When the upstream connection drops (the provider restarts), every browser of that path is
 *   closed with 1012 so its page shows "reconnecting" and, once back, reloads what it missed; the
 *   relay reconnects upstream with backoff meanwhile. A browser arriving while upstream is down
 *   waits for the next attempt (up to `admitTimeoutMs`), then gets 503.
 * * Messages are passed through as they come (the browser validates them against the contract).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer, type RawData } from "ws";

export interface LiveRelayOptions {
  /** The provider's base URL (http[s]://host:port); the websocket URL is derived from it. */
  providerUrl: string;
  /** The paths relayed, e.g. /ws/stock-updates and /ws/trade-updates. */
  paths: readonly string[];
  /** The provider token of the signed-in browser making this upgrade request, else undefined. */
  authenticate(request: IncomingMessage): Promise<string | undefined>;
  /** Longest wait of a browser's upgrade for the upstream connection; 5 s. */
  admitTimeoutMs?: number | undefined;
  /** Upstream reconnect delay: first, and the cap it doubles to; 250 ms and 5 s. */
  reconnectMs?: number | undefined;
  maxReconnectMs?: number | undefined;
  /** Upstream stays open this long after its last browser left (and keeps reconnecting this long); 60 s. */
  idleMs?: number | undefined;
  /** Keep-alive ping to browsers and upstream; a peer that missed the previous pong is dropped; 30 s. */
  pingMs?: number | undefined;
  /** A browser this far behind (bytes queued) is dropped rather than buffered without end; 1 MiB. */
  maxBufferedBytes?: number | undefined;
  log?: ((line: string) => void) | undefined;
}

export type UpstreamState = "idle" | "connecting" | "open" | "waiting";

export interface LiveRelay {
  /** Takes an upgrade request for one of the paths (true), or leaves it alone (false). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  stats(): Record<string, { browsers: number; upstream: UpstreamState }>;
  close(): Promise<void>;
}

/** Close code to browsers when the provider connection is lost: "service restart", come back later. */
export const UPSTREAM_LOST = 1012;

function refuse(socket: Duplex, status: number, reason: string) {
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: 0\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n`,
    );
  }
  socket.destroy();
}

/** Whether a browser's Origin (when it sends one) is this server's own host. */
function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

type Outcome = "open" | "unauthorized" | "failed";
type ChannelSettings = Required<Omit<LiveRelayOptions, "providerUrl" | "paths" | "authenticate">>;

class Channel {
  readonly browsers = new Set<WebSocket>();
  state: UpstreamState = "idle";
  private upstream: WebSocket | null = null;
  private token: string | null = null;
  private waiters: ((outcome: Outcome) => void)[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private delay: number;
  private lastDemand = Date.now();
  private upstreamAlive = true;
  private closed = false;

  private readonly url: string;
  private readonly path: string;
  private readonly options: ChannelSettings;

  constructor(url: string, path: string, options: ChannelSettings) {
    this.url = url;
    this.path = path;
    this.options = options;
    this.delay = options.reconnectMs;
  }

  /** Resolves once upstream is open (or is not going to be, soon) for a browser with `token`. */
  admit(token: string): Promise<Outcome> {
    this.lastDemand = Date.now();
    this.token = token;
    if (this.state === "open") return Promise.resolve("open");
    const outcome = new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => settle("failed"), this.options.admitTimeoutMs);
      const settle = (o: Outcome) => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== settle);
        resolve(o);
      };
      this.waiters.push(settle);
    });
    if (this.state === "idle") this.connect();
    return outcome;
  }

  add(ws: WebSocket): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.browsers.add(ws);
    ws.on("close", () => {
      this.browsers.delete(ws);
      this.lastDemand = Date.now();
      if (this.browsers.size === 0 && this.state === "open") this.scheduleIdle();
    });
  }

  private scheduleIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.browsers.size === 0) this.stopUpstream();
    }, this.options.idleMs);
    this.idleTimer.unref();
  }

  private settle(outcome: Outcome) {
    for (const waiter of [...this.waiters]) waiter(outcome);
  }

  private connect() {
    if (this.closed || !this.token) {
      this.state = "idle";
      this.settle(this.token ? "failed" : "unauthorized");
      return;
    }
    this.state = "connecting";
    const ws = new WebSocket(this.url, {
      headers: { authorization: `Bearer ${this.token}` },
      perMessageDeflate: false,
      handshakeTimeout: this.options.admitTimeoutMs,
    });
    this.upstream = ws;
    this.upstreamAlive = true;
    ws.on("unexpected-response", (_request, response) => {
      response.resume();
      if (response.statusCode === 401) {
        // That browser's token is no longer accepted: wait for a browser with another one.
        this.options.log(`[live] ${this.path}: the provider refused the token (401)`);
        this.token = null;
        this.upstream = null;
        this.state = "idle";
        this.settle("unauthorized");
        ws.terminate();
        return;
      }
      this.options.log(`[live] ${this.path}: the provider answered ${response.statusCode}`);
      ws.terminate();
    });
    ws.on("open", () => {
      this.state = "open";
      this.delay = this.options.reconnectMs;
      this.options.log(`[live] ${this.path}: connected to the provider`);
      this.settle("open");
      if (this.browsers.size === 0) this.scheduleIdle();
    });
    ws.on("pong", () => (this.upstreamAlive = true));
    ws.on("message", (data: RawData, isBinary: boolean) => this.broadcast(data, isBinary));
    ws.on("error", () => {}); // "close" follows and does the work
    ws.on("close", () => this.lost(ws));
  }

  private broadcast(data: RawData, isBinary: boolean) {
    for (const browser of this.browsers) {
      if (browser.readyState !== WebSocket.OPEN) continue;
      if (browser.bufferedAmount > this.options.maxBufferedBytes) browser.terminate();
      else browser.send(data, { binary: isBinary });
    }
  }

  /** The upstream connection ended: tell the browsers, and try again while anyone wants it. */
  private lost(ws: WebSocket) {
    if (this.upstream !== ws) return;
    const wasOpen = this.state === "open";
    this.upstream = null;
    if (wasOpen) this.options.log(`[live] ${this.path}: provider connection lost; reconnecting`);
    for (const browser of this.browsers) browser.close(UPSTREAM_LOST, "Live updates are reconnecting");
    if (this.closed || this.state === "idle") return;
    const wanted = Date.now() - this.lastDemand < this.options.idleMs || this.browsers.size > 0;
    if (!this.token || !wanted) {
      this.state = "idle";
      this.settle("failed");
      return;
    }
    this.state = "waiting";
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, this.delay);
    this.retryTimer.unref();
    this.delay = Math.min(this.delay * 2, this.options.maxReconnectMs);
    // Browsers waiting on the failed attempt are told now; new ones wait for the next attempt.
    if (!wasOpen) this.settle("failed");
  }

  private stopUpstream() {
    this.state = "idle";
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const ws = this.upstream;
    this.upstream = null;
    ws?.close(1000);
  }

  ping() {
    for (const browser of this.browsers) {
      const b = browser as WebSocket & { alive?: boolean };
      if (b.alive === false) {
        b.terminate();
        continue;
      }
      b.alive = false;
      b.ping();
    }
    const up = this.upstream;
    if (up && this.state === "open") {
      if (!this.upstreamAlive) {
        this.options.log(`[live] ${this.path}: the provider stopped answering pings`);
        up.terminate();
        return;
      }
      this.upstreamAlive = false;
      up.ping();
    }
  }

  async close() {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.stopUpstream();
    this.settle("failed");
    for (const browser of this.browsers) browser.close(1001, "Server shutting down");
  }
}

export function createLiveRelay(options: LiveRelayOptions): LiveRelay {
  const settings = {
    admitTimeoutMs: options.admitTimeoutMs ?? 5_000,
    reconnectMs: options.reconnectMs ?? 250,
    maxReconnectMs: options.maxReconnectMs ?? 5_000,
    idleMs: options.idleMs ?? 60_000,
    pingMs: options.pingMs ?? 30_000,
    maxBufferedBytes: options.maxBufferedBytes ?? 1024 * 1024,
    log: options.log ?? ((line: string) => console.log(line)),
  };
  const base = options.providerUrl.replace(/\/$/, "").replace(/^http/, "ws");
  const channels = new Map(options.paths.map((path) => [path, new Channel(base + path, path, settings)]));
  // Browsers send nothing we read: a tiny payload limit, no compression (memory per connection).
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 256 });

  const pinger = setInterval(() => {
    for (const channel of channels.values()) channel.ping();
  }, settings.pingMs);
  pinger.unref();

  return {
    handleUpgrade(request, socket, head) {
      const path = new URL(request.url ?? "/", "http://app.invalid").pathname;
      const channel = channels.get(path);
      if (!channel) return false;
      socket.on("error", () => socket.destroy());
      if (!sameOrigin(request)) {
        refuse(socket, 403, "Forbidden");
        return true;
      }
      void (async () => {
        const token = await options.authenticate(request).catch(() => undefined);
        if (!token) return refuse(socket, 401, "Unauthorized");
        const outcome = await channel.admit(token);
        if (outcome === "unauthorized") return refuse(socket, 401, "Unauthorized");
        if (outcome !== "open") return refuse(socket, 503, "Service Unavailable");
        if (socket.destroyed) return;
        wss.handleUpgrade(request, socket, head, (ws) => {
          ws.on("error", () => ws.terminate());
          ws.on("pong", () => ((ws as WebSocket & { alive?: boolean }).alive = true));
          channel.add(ws);
        });
      })();
      return true;
    },
    stats() {
      return Object.fromEntries(
        [...channels].map(([path, c]) => [path, { browsers: c.browsers.size, upstream: c.state }]),
      );
    },
    async close() {
      clearInterval(pinger);
      await Promise.all([...channels.values()].map((c) => c.close()));
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const c of channels.values()) for (const b of c.browsers) b.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
