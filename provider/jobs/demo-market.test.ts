import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as calls from "#contract/calls.ts";
import { StockPriceUpdate, WS_STOCK_UPDATES } from "#contract/ws.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { startProviderServer, type RunningProvider } from "#provider/server.ts";
import { PRICE_JOB } from "./price-job.ts";

/**
 * The demo market alive at any hour (ADR 0037), end to end through the real provider server: demo
 * data with its default live prices (the switch on), the simulated market replaying while NYSE is
 * closed on a clock the test sets to a Saturday, the real price job, and a real websocket on
 * /ws/stock-updates that receives the moved prices.
 */
const SATURDAY_NOON = new Date("2026-11-21T17:00:00Z"); // 12:00 New York, the exchange closed
let clock = SATURDAY_NOON;
let running: RunningProvider;
let token: string;

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
    demoLivePrices: true,
    secrets: ["test-secret-test-secret-test-secret!"],
    jobs: false,
    market: createSimulatedMarket({ seed: 1, tickers: DEMO_TICKERS, now: () => clock, replayWhenClosed: true }),
  });
  const response = await fetch(running.url + calls.login.path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "demo", password: "demo1234" }),
  });
  token = ((await response.json()) as { access_token: string }).access_token;
});
afterAll(() => running.close());

describe("the demo market on a Saturday", () => {
  it("moves prices and broadcasts a stock_price_update with default demo settings", async () => {
    const { db } = running.provider.context;
    const flag = await db
      .selectFrom("backend_config")
      .select("value")
      .where("key", "=", "auto_refresh_enabled")
      .executeTakeFirstOrThrow();
    expect(flag.value).toBe("1");
    const status = await (await fetch(running.url + calls.marketStatus.path)).json();
    expect(status).toEqual({
      source: "simulated",
      open: false,
      replaying: true,
      next_open: "2026-11-23T14:30:00.000Z",
      now: clock.toISOString(),
    });

    const aaplBefore = await db.selectFrom("stocks").selectAll().where("ticker", "=", "AAPL").executeTakeFirstOrThrow();
    const fridayBar = () =>
      db
        .selectFrom("price_history")
        .selectAll()
        .where("stock_id", "=", aaplBefore.id)
        .where("day", "=", "2026-11-20")
        .executeTakeFirst();
    // The seed stored no bar for Friday; a job storing replayed quotes would write one.
    const barBefore = await fridayBar();

    const ws = new WebSocket(running.url.replace(/^http/, "ws") + WS_STOCK_UPDATES, {
      headers: { authorization: `Bearer ${token}` },
    });
    const messages: StockPriceUpdate[] = [];
    ws.on("message", (data) => messages.push(StockPriceUpdate.parse(JSON.parse(String(data)))));
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));

    // Five minutes of the replayed session later, the job runs as its timer would.
    clock = new Date(SATURDAY_NOON.getTime() + 5 * 60_000);
    await running.provider.scheduler.runNow(PRICE_JOB);
    await until(() => messages.length > 0);
    ws.close();

    const quotes = messages.flatMap((m) => (Array.isArray(m.data) ? m.data : [m.data]));
    const aapl = quotes.find((q) => q.ticker === "AAPL");
    expect(aapl).toBeDefined();
    expect(aapl!.current_price).not.toBe(aaplBefore.current_price);
    expect(aapl!.updated_at).toBe(clock.toISOString());
    // The replay moves the live price only: Friday's stored bars are as they were (none).
    expect(await fridayBar()).toEqual(barBefore);
  });
});
