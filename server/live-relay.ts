/**
 * Same-origin live updates for the browser (docs/architecture.md#decisions "live data", ADR 0013): server.ts hands
 * every upgrade request to `handleUpgrade`. For each live path there is ONE upstream websocket to
 * the provider per app process, fanned out to all the browsers of this process.
 *
 * * A browser is admitted only with a signed-in session (`authenticate` → the provider token and
 *   its expiry) that has not expired; otherwise 401 before the upgrade. A cross-site Origin is
 *   refused with 403. When its session expires, the browser's socket is closed with
 *   WS_CLOSE_UNAUTHORIZED.
 * * The upstream connection is opened with the bearer token of a signed-in browser (the one that
 *   expires last), on demand, and kept while browsers want it (plus `idleMs`).
 * * When the provider closes the upstream connection because that token expired or is no longer
 *   accepted (WS_CLOSE_UNAUTHORIZED), the relay reconnects at once with another browser's token;
 *   the other browsers stay connected and miss only what was published in between.
 * * When the upstream connection drops otherwise (the provider restarts), every browser of that
 *   path is closed with 1012 so its page shows "reconnecting" and, once back, reloads what it
 *   missed; the relay reconnects upstream with backoff meanwhile. A browser arriving while upstream
 *   is down waits for the next attempt (up to `admitTimeoutMs`), then gets 503.
 * * Messages are passed through unparsed (each page checks them against the contract and logs an
 *   invalid one, docs/product.md#states-live): framed once, and that same frame written to every browser
 *   (ws-prepared-frame.ts).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { WS_CLOSE_UNAUTHORIZED } from "#contract/ws-close-codes.ts";
import { prepareFrame, sendPrepared } from "./ws-prepared-frame.ts";
import { queuedVerify } from "./verify-queue.ts";

/** What a signed-in browser's session gives the relay. */
export interface LiveGrant {
  /** The session's provider token. */
  token: string;
  /** When the token, and so the session, expires (ms since the epoch), when known. */
  expiresAt?: number | undefined;
  /** The signed-in user, when known: one user's sockets over all their sessions are capped too. */
  userId?: number | undefined;
}

export interface LiveRelayOptions {
  /** The provider's base URL (http[s]://host:port); the websocket URL is derived from it. */
  providerUrl: string;
  /** The paths relayed, e.g. /ws/stock-updates and /ws/trade-updates. */
  paths: readonly string[];
  /** The session (provider token, expiry) of the signed-in browser making this upgrade request. */
  authenticate(request: IncomingMessage): Promise<LiveGrant | undefined>;
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
  /**
   * Whether the provider still accepts a session's token (false after sign-out or a password
   * reset): asked before a browser is admitted and every `recheckMs` for the open ones.
   */
  verify?: ((token: string) => Promise<boolean>) | undefined;
  /** How often open browsers' sessions are verified again; 60 s. */
  recheckMs?: number | undefined;
  /** Open sockets one session may hold over all paths; further upgrades get 429; 20. */
  maxSocketsPerSession?: number | undefined;
  /**
   * Open sockets one user may hold over all their sessions (50 sign-ins gave one user 1,000
   * sockets, issue 40 finding 8); further upgrades get 429; 40, two sessions' worth.
   */
  maxSocketsPerUser?: number | undefined;
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

/** setTimeout waits at most 2^31-1 ms (24.8 days); a longer wait is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const expired = (grant: LiveGrant, now: number) => grant.expiresAt !== undefined && grant.expiresAt <= now;

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

// Listeners shared by every socket (`this` is the emitter), so none holds a closure per browser.
function destroyOnError(this: Duplex) {
  this.destroy();
}
function terminateOnError(this: WebSocket) {
  this.terminate();
}
function markAlive(this: WebSocket & { alive?: boolean }) {
  this.alive = true;
}

type Outcome = "open" | "unauthorized" | "failed";
type ChannelSettings = Required<
  Omit<
    LiveRelayOptions,
    "providerUrl" | "paths" | "authenticate" | "verify" | "recheckMs" | "maxSocketsPerSession" | "maxSocketsPerUser"
  >
>;

class Channel {
  /** The open browsers and the session each was admitted with. */
  readonly browsers = new Map<WebSocket, LiveGrant>();
  state: UpstreamState = "idle";
  private upstream: WebSocket | null = null;
  /** What the upstream connection was opened with. */
  private upstreamGrant: LiveGrant | null = null;
  /** The newest browser's session, also while its upgrade is in progress. */
  private latest: LiveGrant | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;
  private nextExpiry = Infinity;
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

  /** Resolves once upstream is open (or is not going to be, soon) for a browser with `grant`. */
  admit(grant: LiveGrant): Promise<Outcome> {
    this.lastDemand = Date.now();
    this.latest = grant;
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

  add(ws: WebSocket, grant: LiveGrant): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.browsers.set(ws, grant);
    ws.on("close", () => {
      this.browsers.delete(ws);
      this.lastDemand = Date.now();
      if (this.browsers.size === 0 && this.state === "open") this.scheduleIdle();
    });
    this.watchExpiry(grant.expiresAt);
  }

  /** One timer per path, at the soonest session expiry among its browsers. */
  private watchExpiry(expiresAt: number | undefined) {
    if (expiresAt === undefined || expiresAt >= this.nextExpiry) return;
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.nextExpiry = expiresAt;
    this.expiryTimer = setTimeout(
      () => this.closeExpiredSessions(),
      Math.min(Math.max(0, expiresAt - Date.now()), MAX_TIMER_MS),
    );
    this.expiryTimer.unref();
  }

  /** Closes the browsers whose session has expired; watches for the next one. */
  private closeExpiredSessions() {
    this.expiryTimer = null;
    this.nextExpiry = Infinity;
    const now = Date.now();
    let next: number | undefined;
    for (const [browser, grant] of this.browsers) {
      if (grant.expiresAt === undefined) continue;
      if (grant.expiresAt <= now) {
        this.browsers.delete(browser);
        browser.close(WS_CLOSE_UNAUTHORIZED, "Session expired");
      } else if (next === undefined || grant.expiresAt < next) next = grant.expiresAt;
    }
    this.watchExpiry(next);
  }

  /**
   * The session to open the upstream connection with: of the browsers' and the newest one's, the
   * unexpired one that expires last (an unknown expiry counts as last; the newest wins a tie).
   */
  private pickGrant(): LiveGrant | null {
    const now = Date.now();
    let best: LiveGrant | null = null;
    const consider = (grant: LiveGrant | null) => {
      if (!grant || expired(grant, now)) return;
      if (!best || (grant.expiresAt ?? Infinity) >= (best.expiresAt ?? Infinity)) best = grant;
    };
    for (const grant of this.browsers.values()) consider(grant);
    consider(this.latest);
    return best;
  }

  /** The provider refused `token` (expired, or no longer accepted): so are the sessions holding it. */
  forget(token: string) {
    if (this.latest?.token === token) this.latest = null;
    for (const [browser, grant] of this.browsers) {
      if (grant.token !== token) continue;
      this.browsers.delete(browser);
      browser.close(WS_CLOSE_UNAUTHORIZED, "Session expired");
    }
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
    const grant = this.closed ? null : this.pickGrant();
    if (!grant) {
      this.state = "idle";
      this.settle(this.closed ? "failed" : "unauthorized");
      return;
    }
    this.state = "connecting";
    const ws = new WebSocket(this.url, {
      headers: { authorization: `Bearer ${grant.token}` },
      perMessageDeflate: false,
      handshakeTimeout: this.options.admitTimeoutMs,
    });
    this.upstream = ws;
    this.upstreamGrant = grant;
    this.upstreamAlive = true;
    ws.on("unexpected-response", (_request, response) => {
      response.resume();
      if (response.statusCode === 401) {
        // That token is no longer accepted: try another browser's, else wait for a browser with one.
        this.options.log(`[live] ${this.path}: the provider refused the token (401)`);
        this.upstream = null;
        this.upstreamGrant = null;
        ws.terminate();
        this.forget(grant.token);
        if (this.pickGrant()) return this.connect();
        for (const browser of this.browsers.keys()) browser.close(UPSTREAM_LOST, "Live updates are reconnecting");
        this.state = "idle";
        this.settle("unauthorized");
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
    ws.on("close", (code) => this.lost(ws, code));
  }

  /** One message to every browser: framed once (never parsed here), the same bytes to each. */
  private broadcast(data: RawData, isBinary: boolean) {
    const payload = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    const prepared = prepareFrame(payload, isBinary);
    const maxBuffered = this.options.maxBufferedBytes;
    // Nothing but the write between two sends: no per-browser serialising, framing or allocation.
    for (const browser of this.browsers.keys()) {
      if (browser.readyState !== WebSocket.OPEN) continue;
      if (browser.bufferedAmount > maxBuffered) browser.terminate();
      else sendPrepared(browser, prepared);
    }
  }

  /** The upstream connection ended: tell the browsers, and try again while anyone wants it. */
  private lost(ws: WebSocket, code: number) {
    if (this.upstream !== ws) return;
    const wasOpen = this.state === "open";
    const grant = this.upstreamGrant;
    this.upstream = null;
    this.upstreamGrant = null;
    if (wasOpen && code === WS_CLOSE_UNAUTHORIZED && grant && !this.closed) {
      // The token expired (or was revoked): carry on at once with another browser's, keeping the
      // browsers; they miss only what is published until the new connection is open.
      this.forget(grant.token);
      if (this.pickGrant()) {
        this.options.log(`[live] ${this.path}: the provider token expired; reconnecting with another`);
        this.connect();
        return;
      }
    }
    if (wasOpen) this.options.log(`[live] ${this.path}: provider connection lost; reconnecting`);
    for (const browser of this.browsers.keys()) browser.close(UPSTREAM_LOST, "Live updates are reconnecting");
    if (this.closed || this.state === "idle") return;
    const wanted = Date.now() - this.lastDemand < this.options.idleMs || this.browsers.size > 0;
    if (!this.pickGrant() || !wanted) {
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
    for (const browser of this.browsers.keys()) {
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
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.stopUpstream();
    this.settle("failed");
    for (const browser of this.browsers.keys()) browser.close(1001, "Server shutting down");
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

  const maxSockets = options.maxSocketsPerSession ?? 20;
  const maxUserSockets = options.maxSocketsPerUser ?? 40;
  /** Upgrades of each session (by token) and user (`user:<id>`) past the count check and not yet open or refused. */
  const admittingOf = new Map<string, number>();
  const socketsOf = (token: string) => {
    let count = 0;
    for (const channel of channels.values())
      for (const grant of channel.browsers.values()) if (grant.token === token) count++;
    return count;
  };
  const userSocketsOf = (userId: number) => {
    let count = 0;
    for (const channel of channels.values())
      for (const grant of channel.browsers.values()) if (grant.userId === userId) count++;
    return count;
  };
  const hold = (key: string, by: number) => {
    const left = (admittingOf.get(key) ?? 0) + by;
    if (left === 0) admittingOf.delete(key);
    else admittingOf.set(key, left);
  };
  // Sessions ended elsewhere (sign-out, a password reset) lose their open sockets at the next check.
  // The checks are queued, a few provider calls at a time: a recheck asks for every open session.
  const verify = options.verify && queuedVerify(options.verify);
  const rechecker = setInterval(() => {
    if (!verify) return;
    const tokens = new Set<string>();
    for (const channel of channels.values()) for (const grant of channel.browsers.values()) tokens.add(grant.token);
    for (const token of tokens) {
      void verify(token, { urgent: false }).then((accepted) => {
        if (!accepted) for (const channel of channels.values()) channel.forget(token);
      });
    }
  }, options.recheckMs ?? 60_000);
  rechecker.unref();

  // Nothing an open browser socket keeps (its listeners) may hold on to its upgrade request.
  async function admit(channel: Channel, request: IncomingMessage, socket: Duplex, head: Buffer) {
    const grant = await options.authenticate(request).catch(() => undefined);
    // An expired session is refused too: the page's next loader call ends it (401 → /login).
    if (!grant || expired(grant, Date.now())) return refuse(socket, 401, "Unauthorized");
    // Upgrades still being admitted hold their place, or many sent at once would all pass.
    const admitting = admittingOf.get(grant.token) ?? 0;
    if (socketsOf(grant.token) + admitting >= maxSockets) return refuse(socket, 429, "Too Many Requests");
    const userKey = grant.userId === undefined ? undefined : `user:${grant.userId}`;
    if (userKey && userSocketsOf(grant.userId!) + (admittingOf.get(userKey) ?? 0) >= maxUserSockets) {
      return refuse(socket, 429, "Too Many Requests");
    }
    hold(grant.token, 1);
    if (userKey) hold(userKey, 1);
    try {
      // A browser is waiting for this one: it goes before the rechecks of sockets already open.
      if (verify && !(await verify(grant.token, { urgent: true }))) return refuse(socket, 401, "Unauthorized");
      const outcome = await channel.admit(grant);
      if (outcome === "unauthorized") return refuse(socket, 401, "Unauthorized");
      if (outcome !== "open") return refuse(socket, 503, "Service Unavailable");
      if (socket.destroyed) return;
      // Without `verifyClient`, ws calls back before handleUpgrade returns: the socket is counted
      // among the channel's browsers before its place is given back below.
      wss.handleUpgrade(request, socket, head, (ws) => {
        ws.on("error", terminateOnError);
        ws.on("pong", markAlive);
        channel.add(ws, grant);
      });
    } finally {
      hold(grant.token, -1);
      if (userKey) hold(userKey, -1);
    }
  }

  return {
    handleUpgrade(request, socket, head) {
      const path = new URL(request.url ?? "/", "http://app.invalid").pathname;
      const channel = channels.get(path);
      if (!channel) return false;
      socket.on("error", destroyOnError);
      if (!sameOrigin(request)) {
        refuse(socket, 403, "Forbidden");
        return true;
      }
      void admit(channel, request, socket, head);
      return true;
    },
    stats() {
      return Object.fromEntries(
        [...channels].map(([path, c]) => [path, { browsers: c.browsers.size, upstream: c.state }]),
      );
    },
    async close() {
      clearInterval(pinger);
      clearInterval(rechecker);
      await Promise.all([...channels.values()].map((c) => c.close()));
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const c of channels.values()) for (const b of c.browsers.keys()) b.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
