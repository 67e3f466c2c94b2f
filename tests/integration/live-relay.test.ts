import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "#contract/ws.ts";
import { WS_CLOSE_UNAUTHORIZED } from "#contract/ws-close-codes.ts";
import { createTokenService } from "#provider/auth/tokens.ts";
import { STOCK_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import { startProviderServer, type RunningProvider } from "#provider/server.ts";
import { createLiveRelay, UPSTREAM_LOST, type LiveRelay } from "../../server/live-relay.ts";

/**
 * The app's live relay between real provider servers and websocket clients standing in for
 * browsers, authenticated by real session cookies.
 */
process.env.SESSION_SECRET ??= "live-relay-test-session-secret-0123456789";
const { commitNewSession } = await import("#app/server/session.server.ts");
const { liveSessionOf, tokenExpiry } = await import("../../server/live-session.ts");

const SECRET = "test-secret-test-secret-test-secret!";
let provider: RunningProvider;
let providerPort: number;
let app: Server;
let appUrl: string;
let relay: LiveRelay;
let cookie: string;
const logs: string[] = [];

const startProvider = (port: number) =>
  startProviderServer({ port, host: "127.0.0.1", seedDemo: true, secrets: [SECRET], jobs: false });

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface Browser {
  ws?: WebSocket;
  status?: number;
  messages: unknown[];
  closed?: number;
}
/** A "browser": resolves once open (collecting messages and its close code) or refused (status). */
function browse(path: string, headers: Record<string, string> = { cookie }): Promise<Browser> {
  const ws = new WebSocket(appUrl.replace(/^http/, "ws") + path, { headers });
  const browser: Browser = { messages: [] };
  ws.on("message", (data) => browser.messages.push(JSON.parse(String(data))));
  ws.on("close", (code) => (browser.closed = code));
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(Object.assign(browser, { ws })));
    ws.once("unexpected-response", (_req, res) => {
      ws.terminate();
      resolve(Object.assign(browser, { status: res.statusCode }));
    });
    ws.once("error", reject);
  });
}

const price = (n: number) => ({
  type: "stock_price_update",
  data: { ticker: "AAPL", current_price: 100 + n, updated_at: "2026-11-18T17:00:00.000Z" },
});

/** The session cookie of a browser signed in with `token` (the demo user's). */
async function sessionCookie(token: string): Promise<string> {
  const setCookie = await commitNewSession(token, { id: 2, name: "Demo", email: "demo@example.com", permissions: [] });
  return setCookie.split(";")[0]!;
}

/** A token of the demo user that the provider accepts and that expires `ttlSeconds` (whole seconds) after its issue. */
const shortToken = (ttlSeconds: number) => createTokenService([SECRET], ttlSeconds).issue(2);

beforeAll(async () => {
  provider = await startProvider(0);
  providerPort = Number(new URL(provider.url).port);
  const login = await fetch(`${provider.url}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "demo", password: "demo1234" }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  cookie = await sessionCookie(token);

  relay = createLiveRelay({
    providerUrl: provider.url,
    paths: [WS_STOCK_UPDATES, WS_TRADE_UPDATES],
    authenticate: liveSessionOf,
    admitTimeoutMs: 1_000,
    reconnectMs: 50,
    maxReconnectMs: 200,
    idleMs: 400,
    log: (line) => logs.push(line),
  });
  app = createServer((_req, res) => res.writeHead(404).end());
  app.on("upgrade", (req, socket, head) => {
    if (!relay.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await relay?.close();
  await new Promise((resolve) => app?.close(resolve));
  await provider?.close();
});

describe("live relay", () => {
  it("refuses upgrades without a session (401) and from another site (403)", async () => {
    expect((await browse(WS_STOCK_UPDATES, {})).status).toBe(401);
    expect((await browse(WS_STOCK_UPDATES, { cookie: "__session=forged" })).status).toBe(401);
    expect((await browse(WS_TRADE_UPDATES, { cookie, origin: "https://evil.example" })).status).toBe(403);
    // Nothing was opened upstream for them.
    expect(provider.live.counts()).toEqual({ [WS_STOCK_UPDATES]: 0, [WS_TRADE_UPDATES]: 0 });
  });

  it("fans one upstream connection per path out to every signed-in browser", async () => {
    const browsers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => browse(WS_STOCK_UPDATES, { cookie, origin: appUrl, "x-n": String(i) })),
    );
    const trade = await browse(WS_TRADE_UPDATES);
    expect(browsers.every((b) => b.ws)).toBe(true);
    expect(provider.live.counts()).toEqual({ [WS_STOCK_UPDATES]: 1, [WS_TRADE_UPDATES]: 1 });
    await provider.provider.context.bus.publish(STOCK_UPDATES_CHANNEL, price(1));
    await until(() => browsers.every((b) => b.messages.length === 1));
    for (const b of browsers) expect(b.messages).toEqual([price(1)]);
    expect(trade.messages).toEqual([]);
    for (const b of [...browsers, trade]) b.ws!.close();
    await until(() => relay.stats()[WS_STOCK_UPDATES]!.browsers === 0);
  });

  it("closes the upstream connection once no browser has wanted it for a while", async () => {
    await until(() => provider.live.counts()[WS_STOCK_UPDATES] === 0, 3_000);
    expect(relay.stats()[WS_STOCK_UPDATES]!.upstream).toBe("idle");
  });

  it("when the provider restarts: browsers are closed with 1012, refused (503) while it is down, and resume after", async () => {
    const before = await browse(WS_STOCK_UPDATES);
    expect(before.ws).toBeDefined();
    await provider.close();
    await until(() => before.closed !== undefined);
    expect(before.closed).toBe(UPSTREAM_LOST);

    expect((await browse(WS_STOCK_UPDATES)).status).toBe(503);

    provider = await startProvider(providerPort);
    // As the page does: try again until admitted.
    let again: Browser | undefined;
    const end = Date.now() + 5_000;
    while (!again?.ws && Date.now() < end) {
      again = await browse(WS_STOCK_UPDATES);
      if (!again.ws) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again?.ws).toBeDefined();
    await provider.provider.context.bus.publish(STOCK_UPDATES_CHANNEL, price(2));
    await until(() => again!.messages.length === 1);
    expect(again!.messages).toEqual([price(2)]);
    expect(logs.some((l) => l.includes("provider connection lost"))).toBe(true);
    again!.ws!.close();
  });

  it("refuses a browser whose session has expired (401), and closes one whose session expires", async () => {
    const expired = await sessionCookie(await shortToken(0));
    expect((await browse(WS_STOCK_UPDATES, { cookie: expired })).status).toBe(401);

    // Expires 1 to 2 s from now (whole seconds): long enough to be let in on a busy machine (with
    // one second it could lapse before the upgrade, which then answers 401), soon enough to watch.
    const token = await shortToken(2);
    const expiring = await browse(WS_TRADE_UPDATES, { cookie: await sessionCookie(token) });
    const staying = await browse(WS_TRADE_UPDATES);
    expect(expiring.ws).toBeDefined();
    await until(() => expiring.closed !== undefined, 4_000);
    expect(expiring.closed).toBe(WS_CLOSE_UNAUTHORIZED);
    expect(Date.now()).toBeGreaterThanOrEqual(tokenExpiry(token)!);
    expect(staying.closed).toBeUndefined();
    staying.ws!.close();
  });

  it("when the provider closes the upstream connection at its token's expiry, reconnects at once with another browser's token; the others stay", async () => {
    await until(() => relay.stats()[WS_STOCK_UPDATES]!.upstream === "idle", 3_000);
    const lostBefore = logs.filter((l) => l.includes("provider connection lost")).length;
    // This path's own log line: the test before logs the same words for /ws/trade-updates, and
    // counting those would let the test publish before the old upstream connection has closed.
    const expiredHere = `${WS_STOCK_UPDATES}: the provider token expired; reconnecting with another`;
    const expiredBefore = logs.filter((l) => l.includes(expiredHere)).length;
    // The first browser's token opens the upstream connection and expires 1 to 2 s from now.
    const token = await shortToken(2);
    const first = await browse(WS_STOCK_UPDATES, { cookie: await sessionCookie(token) });
    const others = await Promise.all([browse(WS_STOCK_UPDATES), browse(WS_STOCK_UPDATES)]);
    expect(provider.live.counts()[WS_STOCK_UPDATES]).toBe(1);
    await provider.provider.context.bus.publish(STOCK_UPDATES_CHANNEL, price(4));
    await until(() => [first, ...others].every((b) => b.messages.length === 1));

    await until(() => first.closed !== undefined, 3_000);
    expect(first.closed).toBe(WS_CLOSE_UNAUTHORIZED); // its session expired with its token
    await until(() => logs.filter((l) => l.includes(expiredHere)).length > expiredBefore);
    await until(
      () => relay.stats()[WS_STOCK_UPDATES]!.upstream === "open" && provider.live.counts()[WS_STOCK_UPDATES] === 1,
    );
    await provider.provider.context.bus.publish(STOCK_UPDATES_CHANNEL, price(5));
    await until(() => others.every((b) => b.messages.length === 2));
    for (const b of others) {
      expect(b.closed).toBeUndefined();
      expect(b.messages).toEqual([price(4), price(5)]);
    }
    expect(logs.filter((l) => l.includes("provider connection lost"))).toHaveLength(lostBefore);
    for (const b of others) b.ws!.close();
  });

  it("refuses a browser whose token the provider no longer accepts (its secret changed) with 401", async () => {
    await provider.close();
    provider = await startProviderServer({
      port: providerPort,
      host: "127.0.0.1",
      seedDemo: true,
      secrets: ["another-secret-another-secret-another!"],
      jobs: false,
    });
    let refused: Browser | undefined;
    const end = Date.now() + 5_000;
    while (refused?.status !== 401 && Date.now() < end) {
      refused = await browse(WS_STOCK_UPDATES);
      refused.ws?.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refused?.status).toBe(401);
    expect(logs.some((l) => l.includes("refused the token"))).toBe(true);
  });
});
