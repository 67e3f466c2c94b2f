import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as calls from "#contract/calls.ts";
import { StockPriceUpdate, TradeUpdate, WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "#contract/ws.ts";
import { WS_CLOSE_UNAUTHORIZED } from "#contract/ws-close-codes.ts";
import { createAuthenticator } from "#provider/auth/callers.ts";
import { STOCK_UPDATES_CHANNEL, TRADE_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { refreshPrices } from "#provider/jobs/price-job.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { startProviderServer, type RunningProvider } from "#provider/server.ts";
import { attachLiveSockets } from "./live-sockets.ts";

/** The provider's websockets over a real HTTP server: bearer auth on the upgrade, bus messages relayed. */
let clock = new Date("2026-11-18T16:00:00Z");
let running: RunningProvider;
let token: string;

/** Opens a socket; resolves with it when open, or with the refused upgrade's HTTP status. */
function connect(
  path: string,
  headers: Record<string, string> = {},
  url = running.url,
): Promise<{ ws?: WebSocket; status?: number }> {
  const ws = new WebSocket(url.replace(/^http/, "ws") + path, { headers });
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws }));
    ws.once("unexpected-response", (_req, res) => {
      resolve({ status: res.statusCode });
      ws.terminate();
    });
    ws.once("error", reject);
  });
}

function inbox(ws: WebSocket): unknown[] {
  const messages: unknown[] = [];
  ws.on("message", (data) => messages.push(JSON.parse(String(data))));
  return messages;
}

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function login(url: string, username = "demo", password = "demo1234"): Promise<string> {
  const response = await fetch(url + calls.login.path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Resolves with the close code and reason once `ws` closes. */
function closing(ws: WebSocket): Promise<{ code: number; reason: string; at: number }> {
  return new Promise((resolve) =>
    ws.once("close", (code, reason) => resolve({ code, reason: String(reason), at: Date.now() })),
  );
}

const price = (n: number) => ({
  type: "stock_price_update",
  data: { ticker: "AAPL", current_price: 100 + n, updated_at: "2026-11-18T16:00:00.000Z" },
});

beforeAll(async () => {
  running = await startProviderServer({
    port: 0,
    host: "127.0.0.1",
    seedDemo: true,
    secrets: ["test-secret-test-secret-test-secret!"],
    jobs: false,
    market: createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => clock }),
  });
  token = await login(running.url);
});
afterAll(() => running.close());

describe("provider websockets", () => {
  it("refuses an upgrade without a valid bearer token with 401, and an unknown path with 404", async () => {
    expect((await connect(WS_STOCK_UPDATES)).status).toBe(401);
    expect((await connect(WS_TRADE_UPDATES, { authorization: "Bearer not-a-token" })).status).toBe(401);
    expect((await connect(WS_STOCK_UPDATES, { authorization: `Basic ${token}` })).status).toBe(401);
    expect((await connect("/ws/elsewhere", { authorization: `Bearer ${token}` })).status).toBe(404);
    expect(running.live.counts()).toEqual({ [WS_STOCK_UPDATES]: 0, [WS_TRADE_UPDATES]: 0 });
  });

  it("relays each channel's bus messages to that path's clients only", async () => {
    const auth = { authorization: `Bearer ${token}` };
    const [a, b, trade] = await Promise.all([
      connect(WS_STOCK_UPDATES, auth),
      connect(WS_STOCK_UPDATES, auth),
      connect(WS_TRADE_UPDATES, auth),
    ]);
    const [onA, onB, onTrade] = [inbox(a.ws!), inbox(b.ws!), inbox(trade.ws!)];
    const price = {
      type: "stock_price_update",
      data: { ticker: "AAPL", current_price: 123.45, updated_at: "2026-11-18T16:00:00.000Z" },
    };
    const topLine = TradeUpdate.parse({
      type: "trade_recommendations_top_line_update",
      ticker: "AAPL",
      data: {
        ticker: "AAPL",
        stock_id: 1,
        stock_name: "Apple Inc.",
        current_price: 123.45,
        implied_volatility: 0.25,
        historical_volatility: 0.22,
        average_iv: 140,
        recommendation_date: "2026-11-18T16:00:00.000Z",
        trade_recommendation_count: 3,
      },
    });
    await running.provider.context.bus.publish(STOCK_UPDATES_CHANNEL, price);
    await running.provider.context.bus.publish(TRADE_UPDATES_CHANNEL, topLine);
    await until(() => onA.length === 1 && onB.length === 1 && onTrade.length === 1);
    expect(onA).toEqual([price]);
    expect(onB).toEqual([price]);
    expect(onTrade).toEqual([topLine]);
    for (const c of [a, b, trade]) c.ws!.close();
    await until(() => running.live.counts()[WS_STOCK_UPDATES] === 0);
  });

  it("delivers what the price job publishes, valid by the contract", async () => {
    const { ws } = await connect(WS_STOCK_UPDATES, { authorization: `Bearer ${token}` });
    const messages = inbox(ws!);
    clock = new Date("2026-11-18T17:00:00Z");
    const { updated } = await refreshPrices(running.provider.context);
    expect(updated.length).toBeGreaterThan(0);
    await until(() => messages.length === 1);
    const message = StockPriceUpdate.parse(messages[0]);
    expect(message.data).toEqual(updated);
    ws!.close();
  });

  it("closes its clients when the provider shuts down (the app's relay then reconnects)", async () => {
    const other = await startProviderServer({
      port: 0,
      host: "127.0.0.1",
      seedDemo: true,
      secrets: ["test-secret-test-secret-test-secret!"],
      jobs: false,
    });
    const ws = new WebSocket(other.url.replace(/^http/, "ws") + WS_STOCK_UPDATES, {
      headers: { authorization: `Bearer ${token}` }, // same secret: the token is valid there too
    });
    await new Promise((resolve) => ws.once("open", resolve));
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    await other.close();
    expect(await closed).toBe(1001);
  });

  it("closes a socket when its token expires, and sends it nothing after", async () => {
    const shortLived = await startProviderServer({
      port: 0,
      host: "127.0.0.1",
      seedDemo: true,
      secrets: ["test-secret-test-secret-test-secret!"],
      jobs: false,
      tokenTtlSeconds: 2, // the token's exp is in whole seconds: it expires 1 to 2 s from now
    });
    try {
      const shortToken = await login(shortLived.url);
      const expiresAt =
        (JSON.parse(Buffer.from(shortToken.split(".")[1]!, "base64url").toString()) as { exp: number }).exp * 1000;
      const auth = { authorization: `Bearer ${shortToken}` };
      const { ws } = await connect(WS_STOCK_UPDATES, auth, shortLived.url);
      const messages = inbox(ws!);
      const closed = closing(ws!);
      await shortLived.provider.context.bus.publish(STOCK_UPDATES_CHANNEL, price(1));
      await until(() => messages.length === 1);

      const { code, reason, at } = await closed;
      expect({ code, reason }).toEqual({ code: WS_CLOSE_UNAUTHORIZED, reason: "Token expired" });
      expect(at).toBeGreaterThanOrEqual(expiresAt);
      expect(at).toBeLessThan(expiresAt + 1_000);
      await until(() => shortLived.live.counts()[WS_STOCK_UPDATES] === 0);

      // Published after the expiry: it reaches no one, and the token no longer opens a socket.
      await shortLived.provider.context.bus.publish(STOCK_UPDATES_CHANNEL, price(2));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(messages).toEqual([price(1)]);
      expect((await connect(WS_STOCK_UPDATES, auth, shortLived.url)).status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });

  it("closes a socket whose token is no longer accepted (its user was deleted) at the next re-check", async () => {
    const { db, bus, tokens } = running.provider.context;
    const user = await db
      .insertInto("users")
      .values({
        username: "leaving",
        email: "leaving@example.com",
        password_hash: null,
        first_name: "L",
        last_name: "Eaving",
        firebase_uid: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const server = createServer((_req, res) => res.writeHead(404).end());
    const live = await attachLiveSockets(server, { bus, authenticate: createAuthenticator(db, tokens), recheckMs: 50 });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const leaving = await tokens.issue(user.id);
      const [gone, staying] = await Promise.all([
        connect(WS_TRADE_UPDATES, { authorization: `Bearer ${leaving}` }, url),
        connect(WS_TRADE_UPDATES, { authorization: `Bearer ${token}` }, url),
      ]);
      const closed = closing(gone.ws!);
      await new Promise((resolve) => setTimeout(resolve, 150)); // re-checked a few times: both still fine
      expect(live.counts()[WS_TRADE_UPDATES]).toBe(2);
      await db.deleteFrom("users").where("id", "=", user.id).execute();
      const { code, reason } = await closed;
      expect({ code, reason }).toEqual({ code: WS_CLOSE_UNAUTHORIZED, reason: "Token no longer accepted" });
      expect(staying.ws!.readyState).toBe(WebSocket.OPEN);
      staying.ws!.close();
    } finally {
      await live.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
