import { describe, expect, it } from "vitest";
import { DEFAULT_CAPITAL_SETTINGS, type CapitalSettings } from "#contract/plan.ts";
import { NO_LEVELS } from "#provider/recommend/level-flags.ts";
import { replay, type WheelTrade } from "#provider/journal/wheel.ts";
import { bestPutsOf, bookOf, buildPlan, fitOf, heldLotsOf, scenarioOf, STANDARD_MOVES } from "./plan.ts";

const at = (date: string) => Date.parse(`${date}T15:00:00Z`);
let nextId = 1;
function trade(partial: Partial<WheelTrade> & Pick<WheelTrade, "kind" | "tradedAt" | "ticker">): WheelTrade {
  return {
    id: nextId++,
    optionType: null,
    strike: null,
    expiry: null,
    quantity: 1,
    price: 0,
    fees: 0,
    rolledFrom: null,
    ...partial,
  };
}
const put = (strike: number, expiry: string) => ({ optionType: "put" as const, strike, expiry });

/**
 * The worked journal (docs/decisions/0081):
 *  AAPL  sell 2 puts 200 (2026-12-18) @ 3.00, fee 1.30   premium kept 598.70, collateral 40,000
 *  KO    sell 1 put 62 (2026-10-16) @ 1.00, assigned      100 shares at 62
 *  KO    sell 1 put 60 (2026-12-18) @ 0.81, fee 1.00      premium kept 80.00, collateral 6,000
 *        the open KO cycle's adjusted basis: 62 − 1.00 − 0.80 = 60.20 → 6,020 (the journal's figure)
 *  PEP   sell 1 put 160 @ 2.00, bought back @ 1.00        closed: no collateral, no shares
 * Committed = 40,000 + 6,000 = 46,000; shares at basis = 6,020.
 */
const trades: WheelTrade[] = [
  trade({
    kind: "sell_to_open",
    ticker: "AAPL",
    ...put(200, "2026-12-18"),
    quantity: 2,
    price: 3,
    fees: 1.3,
    tradedAt: at("2026-11-02"),
  }),
  trade({ kind: "sell_to_open", ticker: "KO", ...put(62, "2026-10-16"), price: 1, tradedAt: at("2026-09-14") }),
  trade({ kind: "assignment", ticker: "KO", ...put(62, "2026-10-16"), tradedAt: at("2026-10-16") }),
  trade({
    kind: "sell_to_open",
    ticker: "KO",
    ...put(60, "2026-12-18"),
    price: 0.81,
    fees: 1,
    tradedAt: at("2026-11-03"),
  }),
  trade({ kind: "sell_to_open", ticker: "PEP", ...put(160, "2026-12-18"), price: 2, tradedAt: at("2026-11-04") }),
  trade({ kind: "buy_to_close", ticker: "PEP", ...put(160, "2026-12-18"), price: 1, tradedAt: at("2026-11-10") }),
];
const now = at("2026-11-20");
const result = replay(trades, now);
if (!result.ok) throw new Error(result.refusal.reason);
const wheel = result.wheel;
const sectors = new Map([
  ["AAPL", "Technology"],
  ["MSFT", "Technology"],
  ["KO", "Consumer Staples"],
  ["PEP", "Consumer Staples"],
]);
const AAPL_LEVELS = {
  ...NO_LEVELS,
  conservative_iv: 212.5,
  buy_level_one: 210,
  buy_level_two: 200,
  buy_level_three: 190,
  buy_level_four: 180,
};
const settings = (over: Partial<CapitalSettings>): CapitalSettings => ({ ...DEFAULT_CAPITAL_SETTINGS, ...over });
const inputs = (s: CapitalSettings) => ({
  settings: s,
  legs: wheel.legs,
  lots: heldLotsOf(wheel),
  spots: new Map([
    ["AAPL", 210],
    ["KO", 64],
  ]),
  levels: new Map([["AAPL", AAPL_LEVELS]]),
  sectors,
  moves: STANDARD_MOVES,
  now,
});

describe("committed collateral and free cash", () => {
  it("adds every open short put at strike × 100 × contracts, and shares at their adjusted basis; a closed position adds nothing", () => {
    const plan = buildPlan(inputs(settings({ capital: 60_000, reserve_share: 0 })));
    expect(plan.committed).toBe(46_000);
    expect(plan.shares_cost).toBe(6_020);
    expect(plan.holdings).toEqual([{ ticker: "KO", shares: 100, adjusted_basis: 60.2 }]);
    // 60,000 − 0 reserve − 46,000 − 6,020
    expect(plan.free_cash).toBe(7_980);
    expect(plan.puts.map((p) => p.ticker)).toEqual(["AAPL", "KO"]);
  });

  it("keeps the reserve free: 10 % of 100,000 is 10,000, leaving 100,000 − 10,000 − 46,000 − 6,020 = 37,980", () => {
    const plan = buildPlan(inputs(settings({ capital: 100_000, reserve_share: 0.1 })));
    expect(plan.reserve).toBe(10_000);
    expect(plan.free_cash).toBe(37_980);
  });

  it("says nothing of free cash without capital", () => {
    const plan = buildPlan(inputs(settings({ capital: null })));
    expect(plan.free_cash).toBeNull();
    expect(plan.committed).toBe(46_000);
    expect(plan.exposures[0]!.share_of_capital).toBeNull();
  });
});

describe("a put past its expiry, not yet recorded (docs/decisions/0078)", () => {
  // On 2026-12-21, after the 2026-12-18 close: the AAPL 200 × 2 and KO 60 puts are past their
  // expiry and nobody has recorded them; a new KO 58 put (2027-01-15, 1 contract) is open.
  const later = at("2026-12-21");
  const kept = replay(
    [
      ...trades,
      trade({ kind: "sell_to_open", ticker: "KO", ...put(58, "2027-01-15"), price: 0.9, tradedAt: at("2026-12-21") }),
    ],
    later,
  );
  if (!kept.ok) throw new Error(kept.refusal.reason);
  const plan = buildPlan({
    ...inputs(settings({ capital: 60_000, reserve_share: 0 })),
    legs: kept.wheel.legs,
    lots: heldLotsOf(kept.wheel),
    now: later,
  });

  it("ties up no cash: committed is the KO 58 put's 5,800 only, and free cash 60,000 − 5,800 − 5,930", () => {
    // The KO shares' adjusted basis takes off the new put's 0.90 too: 62 − 1.00 − 0.80 − 0.90 = 59.30.
    // The journal's own figure: an expired leg awaiting resolution holds nothing.
    expect(plan.committed).toBe(5_800);
    expect(plan.free_cash).toBe(48_270);
    expect(plan.puts.map((p) => `${p.ticker} ${p.strike}`)).toEqual(["KO 58"]);
  });

  it("lists the expired puts as awaiting resolution, soonest first, with their premium kept", () => {
    expect(plan.awaiting_resolution).toEqual([
      { ticker: "AAPL", strike: 200, expiry: "2026-12-18", contracts: 2, premium_kept: 598.7 },
      { ticker: "KO", strike: 60, expiry: "2026-12-18", contracts: 1, premium_kept: 80 },
    ]);
  });

  it("leaves them out of the assignment exposure and the scenarios", () => {
    // KO: 100 held at 59.30 + 100 at 58 = 11,730; AAPL no longer appears.
    expect(plan.exposures.map((e) => [e.ticker, e.cost_if_assigned])).toEqual([["KO", 11_730]]);
    expect(plan.scenarios[2]!.expiries.map((e) => e.expiry)).toEqual(["2027-01-15"]);
  });

  it("leaves room for new puts by the fit too: a KO 60 put fits by cash 8 contracts", () => {
    const book = bookOf({
      ...inputs(settings({ capital: 60_000, reserve_share: 0 })),
      legs: kept.wheel.legs,
      lots: heldLotsOf(kept.wheel),
      now: later,
    });
    // 48,270 ÷ 6,000 = 8.05
    expect(fitOf(book, { id: 1, ticker: "KO", strike: 60 })!.by_cash).toBe(8);
  });
});

describe("if every open put were assigned", () => {
  const plan = buildPlan(inputs(settings({ capital: 60_000, reserve_share: 0 })));

  it("owns per ticker the shares held plus 100 a contract, at the strikes less the premiums kept", () => {
    const [aapl, ko] = plan.exposures;
    // AAPL: 200 shares for 40,000; (40,000 − 598.70) ÷ 200 = 197.0065 → 197.01
    expect(aapl).toMatchObject({
      ticker: "AAPL",
      sector: "Technology",
      shares_held: 0,
      shares_if_assigned: 200,
      cost_if_assigned: 40_000,
      basis_if_assigned: 197.01,
      share_of_capital: 0.6667,
      over_limit: true,
      conservative_value: 212.5,
    });
    // KO: 100 held at 60.20 (6,020, the KO 60 put's premium already off) + 100 at 60 (6,000) = 12,020;
    // 12,020 ÷ 200 = 60.10; 20.03 % < 25 %
    expect(ko).toMatchObject({
      ticker: "KO",
      shares_held: 100,
      shares_if_assigned: 200,
      cost_if_assigned: 12_020,
      basis_if_assigned: 60.1,
      share_of_capital: 0.2003,
      over_limit: false,
      conservative_value: null,
    });
  });

  it("sets each strike against the trader's buy levels and conservative value: AAPL 200 is the 2nd buy level, 6 % under 212.50", () => {
    const aapl = plan.puts.find((p) => p.ticker === "AAPL")!;
    expect(aapl.buy_level).toBe("two");
    // 200 ÷ 212.50 − 1 = −0.0588
    expect(aapl.vs_conservative).toBe(-0.0588);
    const ko = plan.puts.find((p) => p.ticker === "KO")!;
    expect(ko.buy_level).toBeNull();
    expect(ko.vs_conservative).toBeNull();
  });

  it("adds the tickers of one sector against the sector limit", () => {
    expect(plan.sectors).toEqual([
      { sector: "Technology", cost_if_assigned: 40_000, share_of_capital: 0.6667, over_limit: true },
      { sector: "Consumer Staples", cost_if_assigned: 12_020, share_of_capital: 0.2003, over_limit: false },
    ]);
  });
});

describe("scenarios", () => {
  const plan = buildPlan({ ...inputs(settings({ capital: 60_000, reserve_share: 0 })), custom: 0.05 });
  const itm = (s: (typeof plan.scenarios)[number]) =>
    s.expiries.flatMap((e) => e.puts.filter((p) => p.in_the_money).map((p) => `${p.ticker} ${p.strike}`));

  it("5 % lower: AAPL 210 → 199.50 ends under the 200 strike, KO 64 → 60.80 does not", () => {
    const s = plan.scenarios[0]!;
    expect(s.move).toBe(-0.05);
    expect(itm(s)).toEqual(["AAPL 200"]);
    expect(s.cash_needed).toBe(40_000);
    // (200 − 199.50) × 200 shares
    expect(s.loss_at_price).toBe(100);
    // 598.70 + 80.00, kept whatever happens
    expect(s.premium_kept).toBe(678.7);
    expect(s.net).toBe(578.7);
  });

  it("10 % lower: both in the money; AAPL at 189 loses 2,200 and KO at 57.60 loses 240", () => {
    const s = plan.scenarios[1]!;
    expect(itm(s)).toEqual(["AAPL 200", "KO 60"]);
    expect(s.cash_needed).toBe(46_000);
    expect(s.loss_at_price).toBe(2_440);
    expect(s.expiries).toHaveLength(1);
    expect(s.expiries[0]!.expiry).toBe("2026-12-18");
  });

  it("20 % lower: AAPL at 168 loses 6,400 and KO at 51.20 loses 880", () => {
    const s = plan.scenarios[2]!;
    expect(s.cash_needed).toBe(46_000);
    expect(s.loss_at_price).toBe(7_280);
    expect(s.net).toBe(678.7 - 7_280);
  });

  it("a custom move up leaves every put out of the money", () => {
    const s = plan.scenarios[3]!;
    expect(s).toMatchObject({ move: 0.05, custom: true, cash_needed: 0, loss_at_price: 0 });
  });

  it("groups by expiry, soonest first, and leaves a stock without a price out of the money", () => {
    const legs = [
      { ...wheel.legs[0]!, expiry: "2027-01-15" },
      { ...wheel.legs[1]!, ticker: "ZZZ" },
    ];
    const s = scenarioOf(legs, new Map([["AAPL", 100]]), -0.1);
    expect(s.expiries.map((e) => e.expiry)).toEqual(["2026-12-18", "2027-01-15"]);
    expect(s.expiries[0]!.puts[0]).toMatchObject({ ticker: "ZZZ", spot: null, in_the_money: false });
  });
});

describe("contracts the plan allows", () => {
  // Capital 100,000, reserve 10 %: free cash 37,980 (above).
  const book = bookOf(inputs(settings({ capital: 100_000, reserve_share: 0.1 })));

  it("a KO 60 put (6,000 a contract): 6 by cash, 2 by the 25 % ticker limit, 4 by the 40 % sector limit", () => {
    const fit = fitOf(book, { id: 1, ticker: "KO", strike: 60 })!;
    // cash 37,980 ÷ 6,000 = 6.33; ticker (25,000 − 12,020) ÷ 6,000 = 2.16; sector (40,000 − 12,020) ÷ 6,000 = 4.66
    expect(fit).toMatchObject({ by_cash: 6, by_ticker: 2, by_sector: 4, contracts_allowed: 2, fits: true });
    expect(fit.collateral_per_contract).toBe(6_000);
    // (12,020 + 6,000) ÷ 100,000
    expect(fit.ticker_share).toBe(0.1802);
  });

  it("an AAPL 200 put: already over the ticker and sector limits, so none", () => {
    const fit = fitOf(book, { id: 2, ticker: "AAPL", strike: 200 })!;
    expect(fit).toMatchObject({ by_cash: 1, by_ticker: 0, by_sector: 0, contracts_allowed: 0, fits: false });
    // (40,000 + 20,000) ÷ 100,000
    expect(fit.ticker_share).toBe(0.6);
  });

  it("a put in a sector with no exposure is held by free cash alone: MSFT 420 (42,000) does not fit 37,980", () => {
    const fit = fitOf(book, { id: 3, ticker: "MSFT", strike: 420 })!;
    expect(fit).toMatchObject({ by_cash: 0, by_ticker: 0, contracts_allowed: 0, fits: false });
    const small = fitOf(book, { id: 4, ticker: "PEP", strike: 100 })!;
    // cash 37,980 ÷ 10,000 = 3; ticker 25,000 ÷ 10,000 = 2; sector (40,000 − 12,020) ÷ 10,000 = 2
    expect(small).toMatchObject({ by_cash: 3, by_ticker: 2, by_sector: 2, contracts_allowed: 2 });
  });

  it("answers null without capital", () => {
    expect(fitOf(bookOf(inputs(settings({ capital: null }))), { id: 1, ticker: "KO", strike: 60 })).toBeNull();
  });
});

describe("best puts across the plan", () => {
  it("takes the best-scored put of each ticker that still fits, and the running total never exceeds free cash", () => {
    const book = bookOf(inputs(settings({ capital: 100_000, reserve_share: 0.1 })));
    const candidates = [
      { id: 10, ticker: "AAPL", strike: 200, score: 9 }, // over its limits: skipped
      { id: 11, ticker: "PEP", strike: 150, score: 8 }, // 15,000: total 15,000
      { id: 12, ticker: "PEP", strike: 140, score: 7.5 }, // a second PEP: skipped
      { id: 13, ticker: "MSFT", strike: 420, score: 7 }, // 42,000 > 22,980 left
      { id: 14, ticker: "XOM", strike: 110, score: 6 }, // 11,000: total 26,000
      { id: 15, ticker: "JPM", strike: 120, score: 5 }, // 12,000 > 11,980 left
      { id: 16, ticker: "KO", strike: 60, score: 4 }, // 6,000: total 32,000
    ];
    const picks = bestPutsOf(book, candidates, 10);
    expect(picks.map((p) => p.candidate.id)).toEqual([11, 14, 16]);
    expect(picks.map((p) => p.runningTotal)).toEqual([15_000, 26_000, 32_000]);
    for (const p of picks) expect(p.runningTotal).toBeLessThanOrEqual(book.freeCash!);
  });

  it("is empty without capital", () => {
    expect(
      bestPutsOf(bookOf(inputs(settings({ capital: null }))), [{ id: 1, ticker: "KO", strike: 1, score: 1 }], 5),
    ).toEqual([]);
  });
});
