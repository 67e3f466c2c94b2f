import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import type { Db } from "#provider/db/client.ts";
import { activeRecommendations, cachedReaderCounts, readerCounts, topLine } from "./store.ts";
import { createCountCache } from "./count-cache.ts";
import { DEFAULT_FILTERS, type TraderFilterValues } from "./selection.ts";

/**
 * The top line counts in SQL (ADR 0033) what selectFor would show each reader; this holds the two
 * equal on a pool built to sit on every filter's edge (a delta, a bid, a spread, a day count equal
 * to a limit; strikes equal to the conservative value; more than three puts an expiry).
 */
let provider: TestProvider;
let db: Db;
let stockId: number;
let ownStockId: number;
let bare: number;
let withOwn: number;
let withZeroOwn: number;

// A small deterministic generator: the same pool on every run and both dialects.
function lcg(seed: number) {
  let x = seed;
  return () => {
    x = (x * 48271) % 2147483647;
    return x / 2147483647;
  };
}
/** A watchlist or UIP row's levels: only those given are set. */
const row = (set: { conservative_iv: number; base_iv: number; buy_level_one?: number }) => ({
  sort_order: 0,
  buy_level_one: 0,
  buy_level_two: 0,
  buy_level_three: 0,
  buy_level_four: 0,
  ...set,
});
const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

async function user(name: string) {
  const row = await db
    .insertInto("users")
    .values({
      username: name,
      email: `${name}@example.test`,
      password_hash: null,
      first_name: "T",
      last_name: name,
      firebase_uid: null,
      tokens_valid_after: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function pool(stock: number, seed: number) {
  const run = await db
    .insertInto("recommendation_runs")
    .values({ stock_id: stock, inputs: JSON.stringify({ spot: 100, levels: {} }) })
    .returning("id")
    .executeTakeFirstOrThrow();
  const r = lcg(seed);
  const rows = Array.from({ length: 240 }, (_, i) => {
    const bid = pick(r, [0.05, 0.1, 0.3, 1, 2.5]);
    // Spreads of exactly 10 % and 15 % of the mid sit on the default and the bench's limits.
    const ask = pick(r, [bid, bid * 1.1, (bid * 21) / 19, (bid * 43) / 37, bid * 1.5]);
    return {
      run_id: run.id,
      stock_id: stock,
      option_identifier: `X${stock}-${i}`,
      put_or_call: "put",
      expiration_date: pick(r, ["2026-11-27", "2026-12-04", "2026-12-18", "2027-01-15", "2027-02-19"]),
      strike_price: pick(r, [85, 90, 92.5, 95, 97.5, 100, 105]),
      current_stock_price: 100,
      current_option_price: bid,
      option_weekly_low_price: bid,
      option_weekly_high_price: bid,
      calculated_monthly_roi: 0.01,
      implied_volatility: 0.3,
      historical_volatility: 0.3,
      delta: -pick(r, [0.05, 0.1, 0.2, 0.35, 0.4, 0.6]),
      theta: -0.01,
      vega: 0.1,
      volume: 10,
      bid,
      ask,
      mid: (bid + ask) / 2,
      open_interest: pick(r, [50, 99, 100, 500]),
      days_to_expiry: pick(r, [5, 7, 30, 60, 75]),
      annualized_roi: 0.1,
      breakeven: 90,
      collateral: 9000,
      cushion: 0.1,
      probability_of_profit: pick(r, [0.6, 0.8, 0.9]),
      probability_of_profit_delta: 0.8,
      probability_of_assignment: 0.2,
      earnings_date: null,
      earnings_before_expiry: r() < 0.3,
      iv_rank: null,
      iv_percentile: null,
      iv_history_days: 0,
      rate: 0.04,
      intrinsic_value: 0,
      time_value: bid,
      spread: 0,
      run_buy_level: null,
      run_below_conservative_iv: false,
      default_score: 0,
      default_rank: 0,
    };
  });
  await db.insertInto("trade_recommendations").values(rows).execute();
  await db
    .insertInto("active_recommendation_runs")
    .values({ stock_id: stock, run_id: run.id })
    .onConflict((oc) => oc.column("stock_id").doUpdateSet({ run_id: run.id }))
    .execute();
}

beforeAll(async () => {
  provider = await testProvider();
  db = provider.context.db;
  const stocks = await db
    .insertInto("stocks")
    .values([
      { ticker: "EDGEA", name: "Edge A", current_price: 100 },
      { ticker: "EDGEB", name: "Edge B", current_price: 100 },
    ])
    .returning("id")
    .execute();
  [stockId, ownStockId] = [stocks[0]!.id, stocks[1]!.id];
  const category = await db
    .insertInto("categories")
    .values({ name: "Edge", icon: "hold" })
    .returning("id")
    .executeTakeFirstOrThrow();
  // Everyone may see a conservative value of 95 on A; B has no UIP row.
  await db
    .insertInto("uip_stocks")
    .values({ stock_id: stockId, category_id: category.id, ...row({ conservative_iv: 95, base_iv: 110 }) })
    .execute();
  bare = await user("edgebare");
  withOwn = await user("edgeown");
  withZeroOwn = await user("edgezero");
  await db
    .insertInto("user_stocks")
    .values([
      { user_id: withOwn, stock_id: stockId, ...row({ conservative_iv: 92.5, base_iv: 100, buy_level_one: 90 }) },
      { user_id: withOwn, stock_id: ownStockId, ...row({ conservative_iv: 97.5, base_iv: 100 }) },
      // Their own row without a conservative value: the UIP row's 95 must not apply to them.
      { user_id: withZeroOwn, stock_id: stockId, ...row({ conservative_iv: 0, base_iv: 100 }) },
    ])
    .execute();
  await pool(stockId, 7);
  await pool(ownStockId, 11);
});
afterAll(() => provider.close());

const FILTER_SETS: TraderFilterValues[] = [
  DEFAULT_FILTERS,
  { ...DEFAULT_FILTERS, at_or_below_conservative: false, skip_earnings: false },
  {
    at_or_below_conservative: true,
    delta_min: 0.05,
    delta_max: 0.4,
    dte_min: 5,
    dte_max: 75,
    min_bid: 0.1,
    min_open_interest: 50,
    max_spread: 0.15,
    skip_earnings: false,
    commission: 0.5,
  },
  { ...DEFAULT_FILTERS, delta_min: 0.2, delta_max: 0.2, dte_min: 30, dte_max: 30, min_bid: 0.3, max_spread: 0.5 },
  { ...DEFAULT_FILTERS, delta_min: 0, delta_max: 0.6, dte_min: 1, dte_max: 90, min_bid: 0.05, min_open_interest: 0 },
];

describe("the top line's count per reader, in SQL", () => {
  it("equals what the reader's list shows, on every filter's edge, for every kind of reader", async () => {
    let compared = 0;
    let nonZero = 0;
    for (const viewer of [null, bare, withOwn, withZeroOwn]) {
      for (const filters of FILTER_SETS) {
        const counts = await readerCounts(db, viewer, filters);
        for (const stock of [stockId, ownStockId]) {
          const list = await activeRecommendations(db, stock, viewer, filters);
          const shown = list.filter((r) => !r.nearest_above_conservative).length;
          expect({ viewer, filters, stock, count: counts.get(stock) ?? 0 }).toEqual({
            viewer,
            filters,
            stock,
            count: shown,
          });
          compared++;
          if (shown > 0) nonZero++;
        }
      }
    }
    expect(compared).toBe(40);
    // The pool is not trivially empty under the filters: most comparisons count something.
    expect(nonZero).toBeGreaterThan(30);
  });

  it("is what topLine serves, with the reader's own intrinsic value", async () => {
    const top = await topLine(db, withOwn, DEFAULT_FILTERS);
    const a = top.find((t) => t.stock_id === stockId)!;
    const list = await activeRecommendations(db, stockId, withOwn, DEFAULT_FILTERS);
    expect(a.trade_recommendation_count).toBe(list.filter((r) => !r.nearest_above_conservative).length);
    // (92.5 + 100) / 2, their own row's; a reader without a row gets the UIP row's (95 + 110) / 2.
    expect(a.average_iv).toBe(96.25);
    expect((await topLine(db, bare, DEFAULT_FILTERS)).find((t) => t.stock_id === stockId)!.average_iv).toBe(102.5);
  });

  it("counts the same through the cache of ADR 0086, shared by readers, and afresh once a reader's level changes", async () => {
    const cache = createCountCache(1_000);
    const compare = async () => {
      for (let pass = 0; pass < 2; pass++) {
        for (const viewer of [null, bare, withOwn, withZeroOwn]) {
          for (const filters of FILTER_SETS) {
            const cached = await cachedReaderCounts(db, cache, viewer, filters);
            const fresh = await readerCounts(db, viewer, filters);
            for (const stock of [stockId, ownStockId]) {
              expect({ viewer, filters, stock, count: cached.get(stock) ?? 0 }).toEqual({
                viewer,
                filters,
                stock,
                count: fresh.get(stock) ?? 0,
              });
            }
          }
        }
      }
    };
    await compare();
    expect(cache.size).toBeGreaterThan(0);
    // The reader's own conservative value moves: what their filters let through changes with it.
    const own = () => db.updateTable("user_stocks").where("user_id", "=", withOwn).where("stock_id", "=", stockId);
    const { conservative_iv } = await db
      .selectFrom("user_stocks")
      .select("conservative_iv")
      .where("user_id", "=", withOwn)
      .where("stock_id", "=", stockId)
      .executeTakeFirstOrThrow();
    const counted = (await cachedReaderCounts(db, cache, withOwn, DEFAULT_FILTERS)).get(stockId) ?? 0;
    try {
      await own()
        .set({ conservative_iv: conservative_iv * 0.9 })
        .execute();
      const lower = (await cachedReaderCounts(db, cache, withOwn, DEFAULT_FILTERS)).get(stockId) ?? 0;
      expect(lower).toBe((await readerCounts(db, withOwn, DEFAULT_FILTERS)).get(stockId) ?? 0);
      expect(lower).toBeLessThan(counted);
      await compare();
    } finally {
      await own().set({ conservative_iv }).execute();
    }
  });

  it("serves the same top line through the cache, leaving out a stock whose active run stored no put", async () => {
    const empty = await db
      .insertInto("stocks")
      .values({ ticker: "ZEMPTY", name: "Nothing Stored Inc.", current_price: 10 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const run = await db
      .insertInto("recommendation_runs")
      .values({ stock_id: empty.id, inputs: JSON.stringify({ spot: 10, levels: {} }) })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("active_recommendation_runs").values({ stock_id: empty.id, run_id: run.id }).execute();
    const cache = createCountCache(1_000);
    for (let pass = 0; pass < 2; pass++) {
      for (const viewer of [null, bare, withOwn, withZeroOwn]) {
        const cached = await topLine(db, viewer, DEFAULT_FILTERS, cache);
        expect(cached).toEqual(await topLine(db, viewer, DEFAULT_FILTERS));
        expect(cached.map((t) => t.stock_id)).not.toContain(empty.id);
        expect(cached.map((t) => t.stock_id)).toContain(stockId);
      }
    }
  });
});
