import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { StockPriceUpdate, type PriceQuote } from "#contract/ws.ts";
import { STOCK_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { rateLimited, vendorDown, type MarketData, type Quote } from "#provider/market/port.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { PRICE_JOB, priceRefreshJob, refreshPrices } from "./price-job.ts";

/**
 * The price refresh against the simulated market on a clock the test moves (Wednesday
 * 2026-11-18, market open), with a vendor stand-in where a test needs a given price or failure.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(5);
  }
}

let clock = new Date("2026-11-18T16:00:00Z");
const simulated = createSimulatedMarket({ seed: 7, tickers: DEMO_TICKERS, now: () => clock });
/** What the vendor says instead of the simulated market, per ticker. */
const overrides = new Map<string, number | Error>();
const market: MarketData = {
  ...simulated,
  async quote(ticker) {
    const override = overrides.get(ticker);
    if (override instanceof Error) throw override;
    const quote = await simulated.quote(ticker);
    if (override === undefined) return quote;
    return { ticker, price: override, asOf: clock, source: "simulated", stale: false } satisfies Quote;
  },
};

let provider: TestProvider;
let adminToken: string;
let demoToken: string;
const published: StockPriceUpdate[] = [];

const setSwitch = (value: "1" | "0") =>
  provider.call(calls.setConfig, { token: adminToken, params: { key: "auto_refresh_enabled" }, body: { value } });
const stock = (ticker: string) =>
  provider.context.db.selectFrom("stocks").selectAll().where("ticker", "=", ticker).executeTakeFirstOrThrow();
const bar = async (ticker: string, day: string) =>
  provider.context.db
    .selectFrom("price_history")
    .selectAll()
    .where("stock_id", "=", (await stock(ticker)).id)
    .where("day", "=", day)
    .executeTakeFirst();
const quotesOf = (message: StockPriceUpdate): PriceQuote[] =>
  Array.isArray(message.data) ? message.data : [message.data];

beforeAll(async () => {
  // On PostgreSQL the refresh is claimed stock by stock and published per batch (ADR 0085): one batch here.
  provider = await testProvider({ market, jobPartitions: { priceBatch: 1000 } });
  adminToken = await provider.login("admin", "admin1234");
  demoToken = await provider.login("demo", "demo1234");
  await provider.context.bus.subscribe(STOCK_UPDATES_CHANNEL, (m) => void published.push(StockPriceUpdate.parse(m)));
});
afterAll(() => provider.close());
beforeEach(() => {
  published.length = 0;
  overrides.clear();
});

/** Tickers on an active watchlist or UIP row. */
async function watchedTickers(): Promise<string[]> {
  const rows = await provider.context.db
    .selectFrom("stocks as s")
    .select("s.ticker")
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom("user_stocks as us")
            .select("us.id")
            .whereRef("us.stock_id", "=", "s.id")
            .where("us.active", "=", 1),
        ),
        eb.exists(
          eb.selectFrom("uip_stocks as u").select("u.id").whereRef("u.stock_id", "=", "s.id").where("u.active", "=", 1),
        ),
      ]),
    )
    .orderBy("s.ticker")
    .execute();
  return rows.map((r) => r.ticker);
}

describe("price refresh job", () => {
  it("does nothing while auto refresh is off", async () => {
    clock = new Date("2026-11-18T16:30:00Z");
    const before = await stock("AAPL");
    const job = priceRefreshJob(provider.context, { intervalMs: 60_000 });
    await job.run(new AbortController().signal);
    await sleep(20);
    expect(published).toEqual([]);
    expect(await stock("AAPL")).toEqual(before);
  });

  it("when on, stores every watched stock's new price and the session's bar, and publishes them in one message", async () => {
    expect((await setSwitch("1")).status).toBe(200);
    clock = new Date("2026-11-18T17:00:00Z");
    await provider.scheduler.runNow(PRICE_JOB); // the job createProvider registered
    await until(() => published.length === 1);
    const watched = await watchedTickers();
    expect(watched.length).toBeGreaterThan(3);
    const quotes = quotesOf(published[0]!);
    expect(quotes.map((q) => q.ticker).sort()).toEqual(watched);
    for (const q of quotes) {
      const expected = await simulated.quote(q.ticker);
      expect(q).toEqual({ ticker: q.ticker, current_price: expected.price, updated_at: clock.toISOString() });
      const row = await stock(q.ticker);
      expect(row.current_price).toBe(expected.price);
      expect(new Date(row.updated_at!).toISOString()).toBe(clock.toISOString());
      expect(row.price_source).toBe("simulated");
    }
    const today = await bar("AAPL", "2026-11-18");
    const session = (await simulated.quote("AAPL")).session!;
    expect(today).toMatchObject({ open: session.open, high: session.high, low: session.low, close: session.close });

    // The same instant again: nothing changed, nothing published.
    await provider.scheduler.runNow(PRICE_JOB);
    await sleep(30);
    expect(published).toHaveLength(1);
  });

  it("keeps the session's open, widens its range and moves its close on later refreshes", async () => {
    const first = (await bar("AAPL", "2026-11-18"))!;
    overrides.set("AAPL", Math.round((first.high + 5) * 100) / 100);
    clock = new Date("2026-11-18T17:05:00Z");
    await refreshPrices(provider.context);
    const widened = (await bar("AAPL", "2026-11-18"))!;
    expect(widened.open).toBe(first.open);
    expect(widened.high).toBe(overrides.get("AAPL"));
    expect(widened.close).toBe(overrides.get("AAPL"));
    expect(widened.low).toBe(first.low);
  });

  it("tells a user whose buy level the price fell through", async () => {
    const aapl = await stock("AAPL");
    const row = await provider.context.db
      .selectFrom("user_stocks as us")
      .innerJoin("users as u", "u.id", "us.user_id")
      .select(["us.id", "us.user_id"])
      .where("u.username", "=", "demo")
      .where("us.stock_id", "=", aapl.id)
      .executeTakeFirstOrThrow();
    const level = Math.floor(aapl.current_price) - 1;
    await provider.context.db
      .updateTable("user_stocks")
      .set({ buy_level_one: level, buy_level_two: 0, buy_level_three: 0, buy_level_four: 0 })
      .where("id", "=", row.id)
      .execute();
    overrides.set("AAPL", level - 0.5);
    clock = new Date("2026-11-18T17:10:00Z");
    await refreshPrices(provider.context);
    const list = await provider.call(calls.listNotifications, { token: demoToken, params: { userId: row.user_id } });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain("AAPL reached your 1st buy level");
  });

  it("skips a ticker the vendor fails on and stops the run when the vendor rate limits", async () => {
    const watched = await watchedTickers();
    clock = new Date("2026-11-18T17:20:00Z");
    overrides.set(watched[0]!, vendorDown());
    const partial = await refreshPrices(provider.context, { concurrency: 2 });
    expect(partial.failed.map((f) => f.ticker)).toEqual([watched[0]]);
    expect(partial.updated.map((q) => q.ticker).sort()).toEqual(watched.slice(1));
    expect(partial.rateLimited).toBe(false);

    overrides.clear();
    overrides.set(watched[1]!, rateLimited(30));
    clock = new Date("2026-11-18T17:25:00Z");
    const limited = await refreshPrices(provider.context, { concurrency: 2 });
    expect(limited.rateLimited).toBe(true);
    // The batch with the limit finished; nothing after it was asked.
    expect(limited.updated.map((q) => q.ticker)).toEqual([watched[0]]);
  });

  it("stops between batches when its run is aborted (leadership lost)", async () => {
    clock = new Date("2026-11-18T17:30:00Z");
    const controller = new AbortController();
    controller.abort();
    const result = await refreshPrices(provider.context, { signal: controller.signal });
    expect(result.updated).toEqual([]);
  });
});
