import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import * as calls from "#contract/calls.ts";
import { TradeUpdate } from "#contract/ws.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { TRADE_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import { buyLevelAtOrAbove, levelFlags, type ReferenceLevels } from "#provider/recommend/engine.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

// Wednesday 2026-11-18, noon in New York: the market is open and the chains are full.
const NOW = new Date("2026-11-18T17:00:00Z");
const market = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => NOW });

let provider: TestProvider;
let demo: { token: string; id: number };
let admin: { token: string; id: number };

beforeAll(async () => {
  provider = await testProvider({ market });
  const signIn = async (name: string, password: string) => {
    const token = await provider.login(name, password);
    const me = await provider.call(calls.me, { token });
    return { token, id: me.body.id as number };
  };
  demo = await signIn("demo", "demo1234");
  admin = await signIn("admin", "admin1234");
});
afterAll(() => provider.close());

const generate = (ticker: string, token?: string) =>
  provider.call(calls.generateRecommendations, { token, params: { ticker } });
const list = (symbol: string, token = demo.token, query?: Record<string, string>) =>
  provider.call(calls.tradeRecommendations, { token, params: { symbol }, query });
/** Every put of the pool the market filters let through, conservative value and earnings aside. */
const WIDE = {
  at_or_below_conservative: "0",
  skip_earnings: "0",
  delta_min: "0",
  delta_max: "0.6",
  min_open_interest: "0",
};

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function watchlistRow(userId: number, ticker: string) {
  return provider.context.db
    .selectFrom("user_stocks as us")
    .innerJoin("stocks as s", "s.id", "us.stock_id")
    .selectAll("us")
    .where("us.user_id", "=", userId)
    .where("s.ticker", "=", ticker)
    .executeTakeFirstOrThrow();
}

describe("POST /api/biz-generate-trade-recommendations/{ticker}: who may generate", () => {
  it("lets a user generate a ticker they flagged for recommendations", async () => {
    const res = await generate("AAPL", demo.token);
    expect(res.status).toBe(200);
    const body = calls.generateRecommendations.response.parse(res.body);
    expect(body.message).toMatch(/^Generated \d+ recommendations for AAPL$/);
  });

  it("refuses a ticker in the watchlist that is not flagged, and one not in it, with the 403 text of docs/product.md#roles-403", async () => {
    expect((await watchlistRow(demo.id, "KO")).generate_recommendation).toBe(false);
    for (const ticker of ["KO", "TSLA"]) {
      const res = await generate(ticker, demo.token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: "Not authorized to generate recommendations" });
    }
    expect((await list("TSLA")).body).toEqual([]);
  });

  it("lets an admin generate any known ticker", async () => {
    const res = await generate("TSLA", admin.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toContain("TSLA");
    const rows = calls.tradeRecommendations.response.parse((await list("TSLA")).body);
    expect(rows.length).toBeGreaterThan(0);
    // TSLA is not in the admin's watchlist: the shared UIP row's levels ranked it.
    const run = await provider.context.db
      .selectFrom("recommendation_runs")
      .select("inputs")
      .where("id", "=", rows[0]!.trade_recommendations_id)
      .executeTakeFirstOrThrow();
    const uip = await provider.context.db
      .selectFrom("uip_stocks")
      .select(["buy_level_one", "conservative_iv"])
      .where("stock_id", "=", rows[0]!.stock_id)
      .executeTakeFirstOrThrow();
    expect(run.inputs).toMatchObject({ levels_source: "uip", trigger: `admin:${admin.id}`, levels: uip });
  });

  it("answers 404 'Not found' for an unknown ticker, to users and admins alike", async () => {
    for (const token of [demo.token, admin.token]) {
      const res = await generate("ZZZZ", token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: "Not found" });
    }
  });

  it("needs a token", async () => {
    expect((await generate("AAPL")).status).toBe(401);
    expect((await provider.call(calls.tradeRecommendations, { params: { symbol: "AAPL" } })).status).toBe(401);
    expect((await provider.call(calls.topLineRecommendations)).status).toBe(401);
  });

  it("follows the flag: unflagging takes the right away", async () => {
    const row = await watchlistRow(demo.id, "JPM");
    await provider.context.db
      .updateTable("user_stocks")
      .set({ generate_recommendation: false })
      .where("id", "=", row.id)
      .execute();
    expect((await generate("JPM", demo.token)).status).toBe(403);
    await provider.context.db
      .updateTable("user_stocks")
      .set({ generate_recommendation: true })
      .where("id", "=", row.id)
      .execute();
    expect((await generate("JPM", demo.token)).status).toBe(200);
  });
});

describe("GET /api/biz-trade-recommendations/{symbol}", () => {
  let rows: TradeRecommendation[];
  beforeAll(async () => {
    await generate("MSFT", demo.token);
    const res = await list("MSFT", demo.token, { at_or_below_conservative: "0" });
    expect(res.status).toBe(200);
    rows = calls.tradeRecommendations.response.parse(res.body);
  });

  it("returns the set valid against the contract, soonest expiry first, at most 3 per expiry", () => {
    expect(rows.length).toBeGreaterThan(5);
    const dates = rows.map((r) => r.expiration_date);
    expect(dates).toEqual([...dates].sort());
    const perDate = new Map<string, number>();
    for (const r of rows) perDate.set(r.expiration_date, (perDate.get(r.expiration_date) ?? 0) + 1);
    for (const n of perDate.values()) expect(n).toBeLessThanOrEqual(3);
    expect(new Set(rows.map((r) => r.trade_recommendations_id)).size).toBe(1);
  });

  it("holds only puts 7 to 60 days out with a bid of at least $0.10, with the numbers a seller checks", async () => {
    const chain = await market.optionChain("MSFT");
    const quotes = new Map(chain.expirations.flatMap((e) => e.options.map((o) => [o.symbol, o] as const)));
    const earnings = await market.nextEarningsDate("MSFT");
    const levels = await watchlistRow(demo.id, "MSFT");
    for (const r of rows) {
      const q = quotes.get(r.option_identifier)!;
      expect(q, r.option_identifier).toBeDefined();
      expect(r.put_or_call).toBe("put");
      expect(r.active).toBe(1);
      expect(r.days_to_expiry).toBeGreaterThanOrEqual(7);
      expect(r.days_to_expiry).toBeLessThanOrEqual(60);
      expect(r.bid).toBe(q.bid);
      expect(r.ask).toBe(q.ask);
      expect(r.open_interest).toBe(q.openInterest);
      expect(r.volume).toBe(q.volume);
      expect(r.current_option_price).toBe(q.bid);
      expect(r.current_stock_price).toBe(chain.spot);
      expect(r.calculated_monthly_roi).toBeCloseTo(((q.bid / r.strike_price) * 30) / r.days_to_expiry, 12);
      expect(r.annualized_roi).toBeCloseTo(((q.bid / r.strike_price) * 365) / r.days_to_expiry, 12);
      expect(r.breakeven).toBeCloseTo(r.strike_price - q.bid, 12);
      expect(r.collateral).toBeCloseTo(100 * r.strike_price, 9);
      expect(r.cushion).toBeCloseTo((chain.spot - r.breakeven) / chain.spot, 12);
      expect(r.probability_of_profit_delta).toBeCloseTo(1 + r.delta, 12);
      expect(r.implied_volatility).toBeGreaterThan(0.05);
      expect(r.historical_volatility).toBeGreaterThan(0.02);
      expect(r.earnings_date).toBe(earnings);
      expect(r.earnings_before_expiry).toBe(earnings !== null && earnings <= r.expiration_date);
      expect(r.buy_level).toBe(buyLevelAtOrAbove(r.strike_price, levels));
      expect(r.below_conservative_iv).toBe(r.strike_price < levels.conservative_iv);
      expect(r.option_weekly_low_price).toBeLessThanOrEqual(r.option_weekly_high_price);
      // The default filters of ADR 0022.
      expect(r.bid).toBeGreaterThanOrEqual(0.1);
      expect(r.open_interest).toBeGreaterThanOrEqual(100);
      expect(Math.abs(r.delta)).toBeGreaterThanOrEqual(0.1);
      expect(Math.abs(r.delta)).toBeLessThanOrEqual(0.35);
      expect(r.spread).toBeLessThanOrEqual(0.1);
      expect(r.earnings_before_expiry).toBe(false);
      expect(r.mid).toBeCloseTo((q.bid + q.ask) / 2, 12);
      expect(r.commission).toBe(0.65);
      expect(r.net_return).toBeCloseTo((r.time_value - 0.0065) / r.strike_price, 12);
    }
  });

  it("takes the weekly low and high from the option's closes over the last five trading days", async () => {
    for (const r of rows.slice(0, 4)) {
      const closes = (await market.optionHistory(r.option_identifier, 5)).map((c) => c.close);
      expect(closes.length).toBe(5);
      expect(r.option_weekly_low_price).toBe(Math.min(...closes));
      expect(r.option_weekly_high_price).toBe(Math.max(...closes));
    }
  });

  it("ranks with the reader's own buy levels and records whose levels made the default view", async () => {
    // The demo's MSFT levels are 95/90/85/80 % of the price: the set leans to strikes at them.
    const atLevel = rows.filter((r) => r.buy_level !== null).length;
    expect(atLevel).toBeGreaterThanOrEqual(rows.length / 5);
    const ranks = rows.map((r) => r.rank).sort((a, b) => a - b);
    expect(ranks).toEqual(rows.map((_, i) => i + 1));
    const run = await provider.context.db
      .selectFrom("recommendation_runs")
      .select("inputs")
      .where("id", "=", rows[0]!.trade_recommendations_id)
      .executeTakeFirstOrThrow();
    expect(run.inputs).toMatchObject({ levels_source: "caller", trigger: `user:${demo.id}`, ticker: "MSFT" });
  });

  it("answers [] for a known stock without recommendations and 404 for an unknown one", async () => {
    expect(await list("SOFI")).toMatchObject({ status: 200, body: [] });
    expect(await list("ZZZZ")).toMatchObject({ status: 404, body: { detail: "Not found" } });
  });
});

describe("all the strikes that pass the filters (issue 46)", () => {
  it("lists the ones beyond the best three of an expiry with all=1, after them and unranked", async () => {
    await generate("MSFT", demo.token);
    const best = calls.tradeRecommendations.response.parse((await list("MSFT", demo.token, WIDE)).body);
    const all = calls.tradeRecommendations.response.parse((await list("MSFT", demo.token, { ...WIDE, all: "1" })).body);
    const perExpiry = (rows: TradeRecommendation[]) =>
      Math.max(...Object.values(Object.groupBy(rows, (r) => r.expiration_date)).map((g) => g!.length));
    expect(perExpiry(best)).toBe(3);
    expect(all.length).toBeGreaterThan(best.length);
    expect(all.slice(0, best.length)).toEqual(best);
    const extra = all.slice(best.length);
    expect(extra.every((r) => r.rank === 0 && Math.abs(r.delta) <= 0.6 + 1e-12)).toBe(true);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
  });
});

describe("the pricing inputs of each put (issue 46)", () => {
  it("carries the dividend yield and the rate the chain priced it with", async () => {
    await generate("MSFT", demo.token);
    const chain = await market.optionChain("MSFT");
    expect(chain.dividendYield).toBeGreaterThan(0);
    const rows = calls.tradeRecommendations.response.parse((await list("MSFT", demo.token, WIDE)).body);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.dividend_yield).toBe(chain.dividendYield);
      expect(row.rate).toBe(chain.rate);
    }
    const one = await provider.call(calls.tradeRecommendation, { token: demo.token, params: { id: rows[0]!.id } });
    expect(one.body).toMatchObject({ dividend_yield: chain.dividendYield, rate: chain.rate });
  });
});

describe("a conservative value left empty (stored as 0) means not set (ADR 0083)", () => {
  it("filters by the UIP list's value instead, and the top line says whose value it is", async () => {
    const row = await watchlistRow(demo.id, "MSFT");
    const uip = await provider.context.db
      .selectFrom("uip_stocks as u")
      .innerJoin("stocks as s", "s.id", "u.stock_id")
      .select("u.conservative_iv")
      .where("s.ticker", "=", "MSFT")
      .executeTakeFirstOrThrow();
    expect(uip.conservative_iv).toBeGreaterThan(0);
    await generate("MSFT", demo.token);
    const wide = { ...WIDE, at_or_below_conservative: "1" };
    try {
      await provider.context.db
        .updateTable("user_stocks")
        .set({ conservative_iv: 0 })
        .where("id", "=", row.id)
        .execute();
      const shown = calls.tradeRecommendations.response.parse((await list("MSFT", demo.token, wide)).body);
      expect(shown.length).toBeGreaterThan(0);
      // Held to the UIP list's value, not let through without a limit.
      for (const put of shown) {
        if (!put.nearest_above_conservative) expect(put.strike_price).toBeLessThanOrEqual(uip.conservative_iv);
      }
      const all = calls.tradeRecommendations.response.parse(
        (await list("MSFT", demo.token, { ...WIDE, at_or_below_conservative: "0" })).body,
      );
      expect(all.some((put) => put.strike_price > uip.conservative_iv)).toBe(true);
      const top = calls.topLineRecommendations.response.parse(
        (await provider.call(calls.topLineRecommendations, { token: demo.token, query: wide })).body,
      );
      const msft = top.find((t) => t.ticker === "MSFT")!;
      expect(msft).toMatchObject({ conservative_iv: uip.conservative_iv, conservative_source: "uip" });
      expect(msft.trade_recommendation_count).toBe(shown.filter((p) => !p.nearest_above_conservative).length);
    } finally {
      await provider.context.db
        .updateTable("user_stocks")
        .set({ conservative_iv: row.conservative_iv })
        .where("id", "=", row.id)
        .execute();
    }
    const top = calls.topLineRecommendations.response.parse(
      (await provider.call(calls.topLineRecommendations, { token: demo.token })).body,
    );
    expect(top.find((t) => t.ticker === "MSFT")).toMatchObject({
      conservative_iv: row.conservative_iv,
      conservative_source: "watchlist",
    });
  });
});

describe("regenerating", () => {
  it("replaces the active set and keeps the old rows, inactive, for scoring later", async () => {
    await generate("GOOGL", demo.token);
    const first = calls.tradeRecommendations.response.parse((await list("GOOGL", demo.token, WIDE)).body);
    // Different levels give a different ranking, so the second set differs.
    const row = await watchlistRow(demo.id, "GOOGL");
    await provider.context.db
      .updateTable("user_stocks")
      .set({ buy_level_one: 0, buy_level_two: 0, buy_level_three: 0, buy_level_four: 0, conservative_iv: 0 })
      .where("id", "=", row.id)
      .execute();
    await generate("GOOGL", demo.token);
    const second = calls.tradeRecommendations.response.parse((await list("GOOGL", demo.token, WIDE)).body);
    expect(second[0]!.trade_recommendations_id).toBeGreaterThan(first[0]!.trade_recommendations_id);
    expect(new Set(second.map((r) => r.trade_recommendations_id)).size).toBe(1);
    expect(second.every((r) => r.buy_level === null)).toBe(true);
    // The emptied conservative value is not set: the shared UIP value flags the strikes (ADR 0083).
    const uipConservative = (
      await provider.context.db
        .selectFrom("uip_stocks")
        .select("conservative_iv")
        .where("stock_id", "=", row.stock_id)
        .executeTakeFirst()
    )?.conservative_iv;
    expect(second.every((r) => r.below_conservative_iv === r.strike_price < (uipConservative ?? 0))).toBe(true);

    const stockId = first[0]!.stock_id;
    const stored = await provider.context.db
      .selectFrom("trade_recommendations as t")
      .leftJoin("active_recommendation_runs as a", "a.run_id", "t.run_id")
      .select(["t.id", "a.run_id as active_run"])
      .where("t.stock_id", "=", stockId)
      .execute();
    // The stored pool holds every row a reader was shown; the first run's rows are kept, not active.
    const active = new Set(stored.filter((r) => r.active_run !== null).map((r) => r.id));
    expect(second.every((r) => active.has(r.id))).toBe(true);
    const retired = new Set(stored.filter((r) => r.active_run === null).map((r) => r.id));
    expect(first.every((r) => retired.has(r.id))).toBe(true);
    expect(retired.size + active.size).toBe(stored.length);
    const runs = await provider.context.db
      .selectFrom("recommendation_runs")
      .select(["id", "inputs"])
      .where("stock_id", "=", stockId)
      .execute();
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.inputs).toMatchObject({ ticker: "GOOGL", spot: first[0]!.current_stock_price });
      expect((run.inputs as { levels: object }).levels).toHaveProperty("buy_level_one");
    }
  });

  it("leaves exactly one active set when generations of one ticker race", async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => generate("META", admin.token)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const active = await provider.context.db
      .selectFrom("active_recommendation_runs as a")
      .innerJoin("trade_recommendations as t", "t.run_id", "a.run_id")
      .innerJoin("stocks as s", "s.id", "a.stock_id")
      .select(["t.run_id", "t.option_identifier"])
      .where("s.ticker", "=", "META")
      .execute();
    expect(new Set(active.map((r) => r.run_id)).size).toBe(1);
    expect(new Set(active.map((r) => r.option_identifier)).size).toBe(active.length);
  });

  it("records the day's at-the-money IV and the next earnings date", async () => {
    const stock = await provider.context.db
      .selectFrom("stocks")
      .select(["id", "next_earnings_date"])
      .where("ticker", "=", "GOOGL")
      .executeTakeFirstOrThrow();
    expect(stock.next_earnings_date).toBe(await market.nextEarningsDate("GOOGL"));
    const day = await provider.context.db
      .selectFrom("price_history")
      .select(["day", "atm_iv", "close"])
      .where("stock_id", "=", stock.id)
      .executeTakeFirstOrThrow();
    expect(day.day).toBe("2026-11-18");
    expect(day.atm_iv).toBeGreaterThan(0.1);
    expect(day.atm_iv).toBeLessThan(1);
  });
});

describe("IV rank", () => {
  it("comes with a year of backfilled daily ATM IVs on the simulated market", async () => {
    await generate("AAPL", demo.token);
    const rows = calls.tradeRecommendations.response.parse((await list("AAPL", demo.token, WIDE)).body);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.iv_history_days).toBe(252);
      expect(r.iv_rank).not.toBeNull();
      expect(r.iv_percentile).not.toBeNull();
    }
  });

  it("from a source without a backfill, is null until a month of ATM IVs is stored, then where today's sits", async () => {
    // A live vendor cannot tell past IVs: the simulated market without its backfill stands for one.
    const live = await testProvider({ market: { ...market, atmIvHistory: undefined } });
    const token = await live.login("demo", "demo1234");
    const generate = (ticker: string, _token: string) =>
      live.call(calls.generateRecommendations, { token, params: { ticker } });
    const list = (symbol: string) => live.call(calls.tradeRecommendations, { token, params: { symbol }, query: WIDE });
    const { db } = live.context;
    const stock = await db.selectFrom("stocks").select("id").where("ticker", "=", "AAPL").executeTakeFirstOrThrow();
    await db.updateTable("price_history").set({ atm_iv: null }).where("stock_id", "=", stock.id).execute();
    await generate("AAPL", demo.token);
    const first = calls.tradeRecommendations.response.parse((await list("AAPL")).body);
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((r) => r.iv_rank === null && r.iv_percentile === null && r.iv_history_days === 0)).toBe(true);

    // 30 earlier days with IVs from 0.10 to 0.68: today's ~0.26 sits low in that range.
    const days = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 9, 7 + i)).toISOString().slice(0, 10));
    for (const [i, day] of days.entries()) {
      const atm_iv = 0.1 + i * 0.02;
      await db
        .insertInto("price_history")
        .values({ stock_id: stock.id, day, open: 1, high: 1, low: 1, close: 1, volume: 0, atm_iv })
        .onConflict((oc) => oc.columns(["stock_id", "day"]).doUpdateSet({ atm_iv }))
        .execute();
    }
    await generate("AAPL", demo.token);
    const today = await db
      .selectFrom("price_history")
      .select("atm_iv")
      .where("stock_id", "=", stock.id)
      .where("day", "=", "2026-11-18")
      .executeTakeFirstOrThrow();
    const ranked = calls.tradeRecommendations.response.parse((await list("AAPL")).body);
    const expected = (today.atm_iv! - 0.1) / (0.68 - 0.1);
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(1);
    for (const r of ranked) expect(r.iv_rank).toBeCloseTo(expected, 9);
    // Percentile: the share of the 30 stored days below today's.
    const below = Array.from({ length: 30 }, (_, i) => 0.1 + i * 0.02).filter((v) => v < today.atm_iv!).length;
    for (const r of ranked) expect(r.iv_percentile).toBeCloseTo(below / 30, 12);
    for (const r of ranked) expect(r.iv_history_days).toBe(30);
    await live.close();
  });
});

describe("GET /api/biz-trade-recommendation/{id}", () => {
  const byId = (id: number | string, token: string | null = demo.token) =>
    provider.call(calls.tradeRecommendation, { token: token ?? undefined, params: { id } });

  it("answers one row as the list has it, and still answers it after a newer run retired it", async () => {
    expect((await generate("AMZN", admin.token)).status).toBe(200);
    const first = calls.tradeRecommendations.response.parse((await list("AMZN", demo.token, WIDE)).body);
    const res = await byId(first[1]!.id);
    expect(res.status).toBe(200);
    // Read alone it has the reader's figures but no place in a list.
    const unranked = (r: TradeRecommendation) => ({ ...r, rank: 0 });
    expect(calls.tradeRecommendation.response.parse(res.body)).toEqual(unranked(first[1]!));

    expect((await generate("AMZN", admin.token)).status).toBe(200);
    const retired = calls.tradeRecommendation.response.parse((await byId(first[1]!.id)).body);
    expect(retired).toEqual({ ...unranked(first[1]!), active: 0, updated_at: expect.any(String) });
    const current = calls.tradeRecommendations.response.parse((await list("AMZN", demo.token, WIDE)).body);
    expect(calls.tradeRecommendation.response.parse((await byId(current[0]!.id)).body)).toEqual(unranked(current[0]!));
  });

  it("answers 404 for an unknown id, 422 for one that is not a number, 401 without a token", async () => {
    expect((await byId(987_654_321)).status).toBe(404);
    expect((await byId("abc")).status).toBe(422);
    expect((await byId(1, null)).status).toBe(401);
  });
});

describe("GET /api/biz-trade-recommendations-top-line", () => {
  it("sums up each stock with recommendations", async () => {
    const res = await provider.call(calls.topLineRecommendations, { token: demo.token });
    expect(res.status).toBe(200);
    const items = calls.topLineRecommendations.response.parse(res.body);
    const tickers = items.map((i) => i.ticker);
    expect(tickers).toEqual([...tickers].sort());
    expect(tickers).toEqual(expect.arrayContaining(["AAPL", "GOOGL", "MSFT", "TSLA"]));
    expect(tickers).not.toContain("SOFI");
    for (const item of items) {
      const rows = calls.tradeRecommendations.response.parse((await list(item.ticker)).body);
      // The count is what this reader's filters let through (0 when only the nearest strike is shown).
      expect(item.trade_recommendation_count).toBe(rows.filter((r) => !r.nearest_above_conservative).length);
      const any = calls.tradeRecommendations.response.parse((await list(item.ticker, demo.token, WIDE)).body);
      expect(item.stock_id).toBe(any[0]!.stock_id);
      expect(item.current_price).toBe(any[0]!.current_stock_price);
      expect(item.historical_volatility).toBe(any[0]!.historical_volatility);
      expect(item.recommendation_date).toBe(any[0]!.created_at);
      expect(item.implied_volatility).toBeGreaterThan(0.05);
    }
    const msft = items.find((i) => i.ticker === "MSFT")!;
    expect(msft.stock_name).toBe("Microsoft Corporation");
    expect(msft.average_iv).toBeCloseTo((await watchlistRow(demo.id, "MSFT")).average_iv, 9);
  });
});

describe("GET /api/biz-trade-recommendations-top-line-page (ADR 0102)", () => {
  beforeAll(async () => {
    for (const ticker of ["AAPL", "AMZN", "GOOGL", "MSFT", "TSLA"])
      expect((await generate(ticker, admin.token)).status).toBe(200);
  });
  const page = async (query: Record<string, string>, token = demo.token) => {
    const res = await provider.call(calls.topLineRecommendationsPage, { token, query });
    expect(res.status).toBe(200);
    return calls.topLineRecommendationsPage.response.parse(res.body);
  };

  it("sends a page of the top line in its order, and how many stocks there are", async () => {
    const all = calls.topLineRecommendations.response.parse(
      (await provider.call(calls.topLineRecommendations, { token: demo.token })).body,
    );
    expect(all.length).toBeGreaterThan(3);
    const first = await page({ limit: "2" });
    expect(first).toEqual({ items: all.slice(0, 2), total: all.length });
    const next = await page({ limit: "2", offset: "2" });
    expect(next).toEqual({ items: all.slice(2, 4), total: all.length });
    expect(await page({})).toEqual({ items: all, total: all.length });
    expect(await page({ limit: "2", offset: String(all.length) })).toEqual({ items: [], total: all.length });
  });

  it("searches every stock by name or ticker, not only the first page", async () => {
    const all = calls.topLineRecommendations.response.parse(
      (await provider.call(calls.topLineRecommendations, { token: demo.token })).body,
    );
    const last = all.at(-1)!;
    const byName = await page({ limit: "1", q: last.stock_name.slice(0, 6).toUpperCase() });
    expect(byName.items[0]).toEqual(last);
    const byTicker = await page({ limit: "1", q: ` ${last.ticker.toLowerCase()} ` });
    expect(byTicker.items.map((i) => i.ticker)).toContain(last.ticker);
    expect(await page({ q: "%" })).toEqual({ items: [], total: 0 });
    expect(await page({ ticker: last.ticker })).toEqual({ items: [last], total: 1 });
    // The filters still apply to the counts, as on the whole top line.
    const wide = calls.topLineRecommendations.response.parse(
      (await provider.call(calls.topLineRecommendations, { token: demo.token, query: WIDE })).body,
    );
    expect((await page({ ...WIDE, ticker: last.ticker })).items).toEqual([wide.at(-1)]);
  });

  it("refuses a page it cannot send with a readable detail", async () => {
    const refused: Record<string, string>[] = [{ limit: "0" }, { limit: "10001" }, { offset: "-1" }, { limit: "two" }];
    for (const query of refused) {
      const res = await provider.call(calls.topLineRecommendationsPage, { token: demo.token, query });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ detail: expect.any(String) });
    }
    expect((await provider.call(calls.topLineRecommendationsPage, { query: { limit: "2" } })).status).toBe(401);
  });
});

describe("whose levels flag the rows (buy_level, below_conservative_iv)", () => {
  type Levels = Omit<ReferenceLevels, "average_iv">;
  // Levels as fractions of the spot, so each set of levels flags different strikes near the money.
  const levelsAt = (spot: number, cons: number, one: number, two: number, three: number, four: number): Levels => {
    const at = (f: number) => Math.round(spot * f * 100) / 100;
    return {
      base_iv: at(cons + 0.1),
      conservative_iv: at(cons),
      buy_level_one: at(one),
      buy_level_two: at(two),
      buy_level_three: at(three),
      buy_level_four: at(four),
    };
  };
  const flagsOf = (rows: TradeRecommendation[]) =>
    rows.map((r) => ({ id: r.id, buy_level: r.buy_level, below_conservative_iv: r.below_conservative_iv }));
  const expectedFlags = (rows: TradeRecommendation[], levels: Levels | null) =>
    rows.map((r) => {
      const f = levels ? levelFlags(r.strike_price, { ...levels, average_iv: 0 }) : null;
      return { id: r.id, buy_level: f?.buyLevel ?? null, below_conservative_iv: f?.belowConservativeIv ?? false };
    });

  async function trader(name: string) {
    const password = `${name}-passw0rd`;
    const res = await provider.call(calls.register, {
      body: { email: `${name}@example.test`, username: name, password, first_name: "T", last_name: "Rader" },
    });
    expect(res.status).toBe(200);
    const token = await provider.login(name, password);
    return { token, id: (await provider.call(calls.me, { token })).body.id as number };
  }
  async function watch(who: { token: string; id: number }, ticker: string, levels: Levels, flag: boolean) {
    const res = await provider.call(calls.createUserStock, {
      token: who.token,
      params: { userId: who.id },
      body: { ...levels, stock: { ticker, name: "", current_price: 0 } },
    });
    expect(res.status).toBe(200);
    if (flag) {
      const flagged = await provider.call(calls.updateUserStock, {
        token: who.token,
        params: { id: res.body.id },
        body: { generate_recommendation: true },
      });
      expect(flagged.status).toBe(200);
    }
  }
  /** Generates as `who` and returns the trade_recommendations_update published for it. */
  async function generateAndCatch(ticker: string, token: string): Promise<TradeRecommendation[]> {
    const seen: unknown[] = [];
    const stop = await provider.context.bus.subscribe(TRADE_UPDATES_CHANNEL, (m) => void seen.push(m));
    expect((await generate(ticker, token)).status).toBe(200);
    await until(() => seen.length >= 2);
    await stop();
    const update = seen.map((m) => TradeUpdate.parse(m)).find((u) => u.type === "trade_recommendations_update");
    expect(update?.ticker).toBe(ticker);
    return update!.data as TradeRecommendation[];
  }

  it("each reader sees the strikes their own levels choose, whoever generated; the broadcast the UIP row's view", async () => {
    const [a, b, c] = [await trader("flags_a"), await trader("flags_b"), await trader("flags_c")];
    const spot = (await market.optionChain("V")).spot;
    const aLevels = levelsAt(spot, 0.99, 0.985, 0.965, 0.945, 0.925);
    const bLevels = levelsAt(spot, 0.9, 0.93, 0.91, 0.89, 0.87);
    const uipLevels = levelsAt(spot, 0.95, 0.975, 0.955, 0.935, 0.915);
    await provider.context.db
      .updateTable("uip_stocks")
      .set(uipLevels)
      .where("stock_id", "=", (eb) => eb.selectFrom("stocks").select("id").where("ticker", "=", "V"))
      .execute();
    await watch(a, "V", aLevels, true);
    await watch(b, "V", bLevels, false);

    const published = await generateAndCatch("V", a.token);
    const run = await provider.context.db
      .selectFrom("recommendation_runs")
      .select("inputs")
      .where("id", "=", published[0]!.trade_recommendations_id)
      .executeTakeFirstOrThrow();
    expect(run.inputs).toMatchObject({ levels_source: "caller", levels: aLevels });

    const read = async (token: string, query?: Record<string, string>) =>
      calls.tradeRecommendations.response.parse((await list("V", token, query)).body);
    const [forA, forB, forC] = [await read(a.token), await read(b.token), await read(c.token)];
    // By default each sees only strikes at or below their own conservative value, else the one nearest above it.
    for (const [rows, levels] of [
      [forA, aLevels],
      [forB, bLevels],
      [forC, uipLevels],
    ] as const) {
      expect(rows.length).toBeGreaterThan(0);
      if (rows[0]!.nearest_above_conservative) {
        expect(rows).toHaveLength(1);
        expect(rows[0]!.strike_price).toBeGreaterThan(levels.conservative_iv);
      } else for (const r of rows) expect(r.strike_price).toBeLessThanOrEqual(levels.conservative_iv);
    }
    expect(forB.map((r) => r.id)).not.toEqual(forA.map((r) => r.id));

    // Another generation, ranked with other levels (the UIP row's, by an admin), changes no one's list.
    const keys = (rows: TradeRecommendation[]) => rows.map((r) => `${r.expiration_date} ${r.strike_price} ${r.rank}`);
    const wide = { at_or_below_conservative: "0" };
    const [wideA, wideB] = [await read(a.token, wide), await read(b.token, wide)];
    expect((await generate("V", admin.token)).status).toBe(200);
    expect(keys(await read(a.token))).toEqual(keys(forA));
    expect(keys(await read(b.token))).toEqual(keys(forB));
    expect(keys(await read(a.token, wide))).toEqual(keys(wideA));
    expect(keys(await read(b.token, wide))).toEqual(keys(wideB));
    expect(flagsOf(wideB)).toEqual(expectedFlags(wideB, bLevels));

    expect(flagsOf(forA)).toEqual(expectedFlags(forA, aLevels));
    expect(flagsOf(forB)).toEqual(expectedFlags(forB, bLevels));
    expect(flagsOf(forC)).toEqual(expectedFlags(forC, uipLevels));
    expect(flagsOf(published)).toEqual(expectedFlags(published, uipLevels));
    // What everyone receives live is what a reader without levels of their own reads.
    expect(published.map((r) => r.option_identifier)).toEqual(forC.map((r) => r.option_identifier));
    expect(forA.some((r) => r.buy_level !== null)).toBe(true);

    // One row by id has the reader's own flags.
    const row = wideA.find((r) => levelFlags(r.strike_price, { ...bLevels, average_iv: 0 }).buyLevel !== r.buy_level)!;
    expect(row).toBeDefined();
    const current = calls.tradeRecommendations.response.parse(
      (await list("V", c.token, { at_or_below_conservative: "0" })).body,
    );
    const id = current.find((r) => r.option_identifier === row.option_identifier)?.id ?? row.id;
    const one = async (token: string) =>
      calls.tradeRecommendation.response.parse(
        (await provider.call(calls.tradeRecommendation, { token, params: { id } })).body,
      );
    expect((await one(a.token)).buy_level).toBe(levelFlags(row.strike_price, { ...aLevels, average_iv: 0 }).buyLevel);
    expect((await one(b.token)).buy_level).toBe(levelFlags(row.strike_price, { ...bLevels, average_iv: 0 }).buyLevel);
  });

  it("without a UIP row, a reader without levels and the broadcast see no flags, the generating user theirs", async () => {
    const [a, c] = [await trader("flags_d"), await trader("flags_e")];
    const stock = await provider.context.db
      .selectFrom("stocks")
      .select("id")
      .where("ticker", "=", "XOM")
      .executeTakeFirstOrThrow();
    expect(
      await provider.context.db.selectFrom("uip_stocks").select("id").where("stock_id", "=", stock.id).execute(),
    ).toEqual([]);
    const spot = (await market.optionChain("XOM")).spot;
    const aLevels = levelsAt(spot, 0.99, 0.985, 0.965, 0.945, 0.925);
    await watch(a, "XOM", aLevels, true);

    const published = await generateAndCatch("XOM", a.token);
    const forA = calls.tradeRecommendations.response.parse((await list("XOM", a.token, WIDE)).body);
    const forC = calls.tradeRecommendations.response.parse((await list("XOM", c.token, WIDE)).body);
    expect(flagsOf(forA)).toEqual(expectedFlags(forA, aLevels));
    expect(forA.some((r) => r.buy_level !== null || r.below_conservative_iv)).toBe(true);
    // Without levels only the buy-level bonus differs: the same puts, perhaps in another order.
    expect(forC.map((r) => r.id).sort()).toEqual(forA.map((r) => r.id).sort());
    for (const rows of [forC, published]) {
      expect(rows.every((r) => r.buy_level === null && r.below_conservative_iv === false)).toBe(true);
    }
  });
});

describe("live updates and notifications", () => {
  it("publishes the set and the summary on the trade-updates channel after each generation", async () => {
    const seen: unknown[] = [];
    const stop = await provider.context.bus.subscribe(TRADE_UPDATES_CHANNEL, (m) => void seen.push(m));
    await generate("NVDA", admin.token);
    await until(() => seen.length >= 2);
    await stop();
    const updates = seen.map((m) => TradeUpdate.parse(m));
    expect(updates.map((u) => u.type)).toEqual([
      "trade_recommendations_update",
      "trade_recommendations_top_line_update",
    ]);
    // The broadcast is the default view with the shared levels: what the admin (no NVDA of their own) reads.
    const rows = (await list("NVDA", admin.token)).body;
    expect(updates[0]).toEqual({ type: "trade_recommendations_update", ticker: "NVDA", data: rows });
    const top = (await provider.call(calls.topLineRecommendations, { token: admin.token })).body.find(
      (i: { ticker: string }) => i.ticker === "NVDA",
    );
    // The admin's own intrinsic value of NVDA, if any, is theirs; the broadcast has the shared one,
    // and no reader's conservative value (the page keeps its own, app/lib/insights.ts).
    const { conservative_iv: _value, conservative_source: _source, ...shared } = top;
    expect(updates[1]).toEqual({
      type: "trade_recommendations_top_line_update",
      ticker: "NVDA",
      data: { ...shared, average_iv: (updates[1]!.data as { average_iv: number }).average_iv },
    });
  });

  it("publishes the shared intrinsic value, never the generating user's own, and each reader sees their own", async () => {
    const seen: unknown[] = [];
    const stop = await provider.context.bus.subscribe(TRADE_UPDATES_CHANNEL, (m) => void seen.push(m));
    expect((await generate("MSFT", demo.token)).status).toBe(200);
    await until(() => seen.length >= 2);
    await stop();
    const published = seen
      .map((m) => TradeUpdate.parse(m))
      .find((u) => u.type === "trade_recommendations_top_line_update");
    const own = (
      await provider.call(calls.listUserStocks, { token: demo.token, params: { userId: demo.id } })
    ).body.find((r: { stock: { ticker: string } }) => r.stock.ticker === "MSFT");
    const uip = (await provider.call(calls.listUipStocks, { token: demo.token })).body.find(
      (r: { stock: { ticker: string } }) => r.stock.ticker === "MSFT",
    );
    expect(own.average_iv).not.toBeCloseTo(uip.average_iv, 2);
    expect(published?.data.average_iv).toBeCloseTo(uip.average_iv, 6);
    const topFor = async (token: string) =>
      (await provider.call(calls.topLineRecommendations, { token })).body.find(
        (i: { ticker: string }) => i.ticker === "MSFT",
      );
    expect((await topFor(demo.token)).average_iv).toBeCloseTo(own.average_iv, 6);
    await provider.call(calls.register, {
      body: {
        email: "reader@example.com",
        username: "reader",
        password: "reader1234",
        first_name: "R",
        last_name: "Eader",
      },
    });
    const reader = await provider.login("reader", "reader1234");
    expect((await topFor(reader)).average_iv).toBeCloseTo(uip.average_iv, 6);
  });

  it("tells the users who flagged the ticker about a new set (type trade, to /insights), at most every six hours", async () => {
    const other = await testProvider({ market });
    try {
      const token = await other.login("demo", "demo1234");
      const me = (await other.call(calls.me, { token })).body.id as number;
      const notices = async () =>
        (
          (await other.call(calls.listNotifications, { token, params: { userId: me } })).body as {
            notification: { type: string; title: string; url: string | null };
          }[]
        ).filter((n) => n.notification.title.includes("JPM"));
      expect(await notices()).toHaveLength(0);
      // No conservative value, so the default view has picks and the buy level alone moves them.
      await other.context.db
        .updateTable("user_stocks")
        .set({ conservative_iv: 0 })
        .where("user_id", "=", me)
        .where("stock_id", "=", (eb) => eb.selectFrom("stocks").select("id").where("ticker", "=", "JPM"))
        .execute();
      expect((await other.call(calls.generateRecommendations, { token, params: { ticker: "JPM" } })).status).toBe(200);
      const after = await notices();
      expect(after).toHaveLength(1);
      expect(after[0]!.notification).toMatchObject({
        type: "trade",
        url: "/insights",
        title: "New recommendations for JPM",
      });
      // Same market, same levels: the same set, so nobody is told again.
      await other.call(calls.generateRecommendations, { token, params: { ticker: "JPM" } });
      expect(await notices()).toHaveLength(1);

      // A different set within six hours of the last announcement: still quiet.
      const { db } = other.context;
      const stock = await db.selectFrom("stocks").select("id").where("ticker", "=", "JPM").executeTakeFirstOrThrow();
      // The conservative value decides what the default view may pick.
      const levels = (conservative: number) =>
        db
          .updateTable("user_stocks")
          .set({ conservative_iv: conservative })
          .where("user_id", "=", me)
          .where("stock_id", "=", stock.id)
          .execute();
      const activeSymbols = async () =>
        (
          await db
            .selectFrom("active_recommendation_runs as a")
            .innerJoin("trade_recommendations as t", "t.run_id", "a.run_id")
            .select("t.option_identifier")
            .where("a.stock_id", "=", stock.id)
            .where("t.default_rank", ">", 0) // the default view's picks
            .execute()
        )
          .map((r) => r.option_identifier)
          .sort();
      const before = await activeSymbols();
      const picked = await db
        .selectFrom("active_recommendation_runs as a")
        .innerJoin("trade_recommendations as t", "t.run_id", "a.run_id")
        .select(({ fn }) => fn.min("t.strike_price").as("lowest"))
        .where("a.stock_id", "=", stock.id)
        .where("t.default_rank", ">", 0)
        .executeTakeFirstOrThrow();
      await levels(Number(picked.lowest) - 0.01);
      await other.call(calls.generateRecommendations, { token, params: { ticker: "JPM" } });
      expect(await activeSymbols()).not.toEqual(before);
      expect(await notices()).toHaveLength(1);

      // Seven hours later (the runs moved back in time), a new set is announced again.
      await db
        .updateTable("recommendation_runs")
        .set({ created_at: sql`created_at - interval '7 hours'` })
        .where("stock_id", "=", stock.id)
        .execute();
      const second = await activeSymbols();
      await levels(0);
      await other.call(calls.generateRecommendations, { token, params: { ticker: "JPM" } });
      expect(await activeSymbols()).not.toEqual(second);
      expect(await notices()).toHaveLength(2);
    } finally {
      await other.close();
    }
  });
});
