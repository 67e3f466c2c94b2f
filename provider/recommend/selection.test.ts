import { describe, expect, it } from "vitest";
import { NO_LEVELS, type ReferenceLevels } from "./level-flags.ts";
import { DEFAULT_FILTERS, figuresOf, selectFor, type PoolOption } from "./selection.ts";

/** A put of a $100 stock, 30 days out, T-bills at 4 %, liquid, no earnings before expiry. */
function put(changes: Partial<PoolOption>): PoolOption {
  return {
    strike_price: 95,
    expiration_date: "2026-12-18",
    current_stock_price: 100,
    bid: 1,
    ask: 1.04,
    delta: -0.25,
    days_to_expiry: 30,
    open_interest: 500,
    earnings_before_expiry: false,
    probability_of_profit: 0.78,
    rate: 0.04,
    ...changes,
  };
}

const levels = (changes: Partial<ReferenceLevels>): ReferenceLevels => ({ ...NO_LEVELS, ...changes });

describe("one reader's figures, worked by hand", () => {
  it("an in-the-money put earns its time value only, net of commission", () => {
    // Strike 105 on a $100 stock, bid 6.20: $5.00 of the premium is intrinsic value (the stock put
    // to you $5 above its price), so the income is the $1.20 time value. Less $0.65 a contract
    // ($0.0065 a share): 1.1935 on $105 of collateral = 1.13667 % in 30 days; a year of such
    // months: × 365 / 30 = 13.83 %. On the whole premium it would read 6.20 / 105 × 365 / 30 = 71.8 %.
    const f = figuresOf(put({ strike_price: 105, bid: 6.2, ask: 6.4, delta: -0.62 }), null, DEFAULT_FILTERS);
    expect(f.intrinsic_value).toBeCloseTo(5, 12);
    expect(f.time_value).toBeCloseTo(1.2, 12);
    expect(f.mid).toBeCloseTo(6.3, 12);
    expect(f.net_return).toBeCloseTo(0.0113666667, 9);
    expect(f.net_monthly_return).toBeCloseTo(0.0113666667, 9);
    expect(f.net_annualized_return).toBeCloseTo(0.1382944444, 9);
    // T-bills pay 4 % × 30 / 365 = 0.32877 % on the same money for the same days.
    expect(f.tbill_return).toBeCloseTo(0.0032876712, 9);
    expect(f.excess_return).toBeCloseTo(0.0080789954, 9);
  });

  it("scores net monthly yield × chance of profit ÷ (1 + spread)", () => {
    // 95 strike, bid 1.00, ask 1.04: net 0.9935 / 95 = 1.045789 % a month; spread 0.04 / 1.02 =
    // 3.92 %; × 0.78 ÷ 1.0392157 = 0.0078493.
    const f = figuresOf(put({}), null, DEFAULT_FILTERS);
    expect(f.spread).toBeCloseTo(0.0392156863, 9);
    expect(f.score).toBeCloseTo(0.0078493406, 9);
  });

  it("commission is the reader's: $0 gives the gross time value", () => {
    const f = figuresOf(put({}), null, { ...DEFAULT_FILTERS, commission: 0 });
    expect(f.net_return).toBeCloseTo(1 / 95, 12);
  });
});

describe("one reader's selection", () => {
  it("leaves out a penny option, whatever it would pay", () => {
    // Bid $0.01, ask $0.05: under the $0.10 minimum bid, and a spread of 133 % of the mid.
    const penny = put({ strike_price: 80, bid: 0.01, ask: 0.05, delta: -0.11 });
    const { selected } = selectFor([penny, put({})], null, DEFAULT_FILTERS);
    expect(selected.map((s) => s.option.strike_price)).toEqual([95]);
    expect(selectFor([penny], null, { ...DEFAULT_FILTERS, min_bid: 0.01 }).selected).toEqual([]); // the spread still
  });

  it("ranks an expiry that spans earnings below one that does not, and skips it by default", () => {
    const calm = put({ expiration_date: "2026-12-18" });
    // Same figures, a week later, across the earnings report: even paying a fifth more it ranks second.
    const spanning = put({ expiration_date: "2026-12-24", bid: 1.2, ask: 1.24, earnings_before_expiry: true });
    expect(selectFor([spanning, calm], null, DEFAULT_FILTERS).selected.map((s) => s.option)).toEqual([calm]);
    const shown = selectFor([spanning, calm], null, { ...DEFAULT_FILTERS, skip_earnings: false }).selected;
    expect(shown.map((s) => [s.option.expiration_date, s.rank])).toEqual([
      ["2026-12-18", 1],
      ["2026-12-24", 2],
    ]);
  });

  it("a strike at the reader's buy level beats a richer one above it", () => {
    // 97.5 strike, bid 1.30: net 1.2935 / 97.5 = 1.32667 % × 0.72 ÷ (1 + 0.04 / 1.32) = 0.0092711.
    // 95 strike at the 1st buy level: 0.0078493 × 1.25 = 0.0098117, so it ranks first.
    const richer = put({ strike_price: 97.5, bid: 1.3, ask: 1.34, delta: -0.32, probability_of_profit: 0.72 });
    const atLevel = put({});
    const plain = selectFor([richer, atLevel], null, DEFAULT_FILTERS).selected;
    expect(plain.find((s) => s.rank === 1)!.option).toBe(richer);
    const mine = selectFor([richer, atLevel], levels({ buy_level_one: 95 }), DEFAULT_FILTERS).selected;
    expect(mine.find((s) => s.rank === 1)!.option).toBe(atLevel);
    expect(mine.find((s) => s.rank === 1)!.figures.score).toBeCloseTo(0.0098116758, 9);
    expect(mine.find((s) => s.rank === 2)!.figures.score).toBeCloseTo(0.0092710588, 9);
  });

  it("keeps to strikes at or below the reader's conservative value, else names the nearest above it", () => {
    const pool = [92.5, 95, 97.5].map((strike_price) => put({ strike_price }));
    const at95 = selectFor(pool, levels({ conservative_iv: 95 }), DEFAULT_FILTERS);
    expect(at95.selected.map((s) => s.option.strike_price).sort()).toEqual([92.5, 95]);
    expect(at95.nearest).toBeNull();
    const low = selectFor(pool, levels({ conservative_iv: 90 }), DEFAULT_FILTERS);
    expect(low.selected).toEqual([]);
    expect(low.nearest!.option.strike_price).toBe(92.5);
    // Off, or without a conservative value, every strike the other filters let through.
    expect(
      selectFor(pool, levels({ conservative_iv: 90 }), { ...DEFAULT_FILTERS, at_or_below_conservative: false })
        .selected,
    ).toHaveLength(3);
    expect(selectFor(pool, null, DEFAULT_FILTERS).selected).toHaveLength(3);
  });

  it("another reader's levels are not an input: the same pool and filters give the same list", () => {
    const pool = [85, 87.5, 90, 92.5, 95, 97.5].map((strike_price, i) =>
      put({ strike_price, bid: 0.5 + i * 0.2, ask: 0.54 + i * 0.2, delta: -(0.1 + i * 0.04) }),
    );
    const b = levels({ conservative_iv: 93, buy_level_one: 90 });
    const first = selectFor(pool, b, DEFAULT_FILTERS).selected.map((s) => [s.option.strike_price, s.rank]);
    // Whatever else happened (another trader's levels ranked the stored order), B's view is B's.
    const again = selectFor([...pool].reverse(), b, DEFAULT_FILTERS).selected.map((s) => [
      s.option.strike_price,
      s.rank,
    ]);
    expect(again).toEqual(first);
    for (const [strike] of first) expect(strike).toBeLessThanOrEqual(93);
  });

  it("applies the delta, days, open-interest and spread filters at their edges", () => {
    const f = DEFAULT_FILTERS;
    const pass = (o: Partial<PoolOption>) => selectFor([put(o)], null, f).selected.length === 1;
    expect([pass({ delta: -0.1 }), pass({ delta: -0.35 }), pass({ delta: -0.09 }), pass({ delta: -0.36 })]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([
      pass({ days_to_expiry: 7 }),
      pass({ days_to_expiry: 60 }),
      pass({ days_to_expiry: 6 }),
      pass({ days_to_expiry: 61 }),
    ]).toEqual([true, true, false, false]);
    expect([pass({ open_interest: 100 }), pass({ open_interest: 99 })]).toEqual([true, false]);
    // 10 % of the mid: bid 0.95, ask 1.05 is exactly 0.10 / 1.00.
    expect([pass({ bid: 0.95, ask: 1.05 }), pass({ bid: 0.95, ask: 1.06 })]).toEqual([true, false]);
  });
});
