import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as calls from "../../contract/calls.ts";
import { StockPriceUpdate, TradeUpdate, WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "../../contract/ws.ts";
import { STOCK_UPDATES_CHANNEL, TRADE_UPDATES_CHANNEL } from "../bus/channels.ts";
import { DEMO_TICKERS } from "../db/demo-data.ts";
import { refreshPrices } from "../jobs/price-job.ts";
import { createSimulatedMarket } from "../market/simulated.ts";
import { startProviderServer, type RunningProvider } from "../server.ts";

/** The provider's websockets over a real HTTP server: bearer auth on the upgrade, bus messages relayed. */
let clock = new Date("2026-11-18T16:00:00Z");
let running: RunningProvider;
let token: string;

/** Opens a socket; resolves with it when open, or with the refused upgrade's HTTP status. */
function connect(path: string, headers: Record<string, string> = {}): Promise<{ ws?: WebSocket; status?: number }> {
  const ws = new WebSocket(running.url.replace(/^http/, "ws") + path, { headers });
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

beforeAll(async () => {
  running = await startProviderServer({
    port: 0,
    host: "127.0.0.1",
    seedDemo: true,
    secrets: ["test-secret-test-secret-test-secret!"],
    jobs: false,
    market: createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => clock }),
  });
  const response = await fetch(running.url + calls.login.path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "demo", password: "demo1234" }),
  });
  token = ((await response.json()) as { access_token: string }).access_token;
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
});
