import { describe, expect, it } from "vitest";
import { cycleFigures, legAtMark, periodStats, replay, type WheelTrade } from "./wheel.ts";

const at = (date: string) => Date.parse(`${date}T12:00:00Z`);
let nextId = 1;
function trade(partial: Partial<WheelTrade> & Pick<WheelTrade, "kind" | "tradedAt">): WheelTrade {
  return {
    id: nextId++,
    ticker: "KO",
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
const call = (strike: number, expiry: string) => ({ optionType: "call" as const, strike, expiry });

function ok(trades: WheelTrade[], now = at("2026-06-01")) {
  const result = replay(trades, now);
  if (!result.ok) throw new Error(result.refusal.reason);
  return result.wheel;
}

/**
 * One whole wheel on KO, 100 shares:
 *  5 Jan  sell 1 put 50 (30 Jan) @ 2.00, fee 1.00   cash +199.00
 * 30 Jan  assigned, 100 shares at 50                 cash −5,000.00   put P/L = 199.00
 *  2 Feb  sell 1 call 55 (27 Feb) @ 1.00, fee 1.00  cash +99.00      basis 50 − 1.99 − 0.99 = 47.02
 * 27 Feb  the call expires                           call P/L = 99.00
 *  2 Mar  sell 1 call 52 (27 Mar) @ 1.50, fee 1.00  cash +149.00     basis 47.02 − 1.49 = 45.53
 * 27 Mar  called away at 52                          cash +5,200.00   P/L = 149 + 5,200 − 5,000 = 349.00
 * Cycle P/L = 199 + 99 + 349 = 647.00 (= the cash sum 199 − 5,000 + 99 + 149 + 5,200).
 * Collateral-days: put 5,000 × 25 d; shares 5,000 × (3 + 25 + 3 + 25) d = 5,000 × 81 = 405,000.
 * Return on capital 647 ÷ 5,000 = 12.94 %; annualised 647 ÷ 405,000 × 365 = 58.31 %.
 */
function wholeWheel() {
  return [
    trade({ kind: "sell_to_open", ...put(50, "2026-01-30"), price: 2, fees: 1, tradedAt: at("2026-01-05") }),
    trade({ kind: "assignment", ...put(50, "2026-01-30"), tradedAt: at("2026-01-30") }),
    trade({ kind: "sell_to_open", ...call(55, "2026-02-27"), price: 1, fees: 1, tradedAt: at("2026-02-02") }),
    trade({ kind: "expire", ...call(55, "2026-02-27"), tradedAt: at("2026-02-27") }),
    trade({ kind: "sell_to_open", ...call(52, "2026-03-27"), price: 1.5, fees: 1, tradedAt: at("2026-03-02") }),
    trade({ kind: "exercise", ...call(52, "2026-03-27"), tradedAt: at("2026-03-27") }),
  ];
}

describe("a whole wheel", () => {
  it("realises P/L per trade and per cycle, net of fees", () => {
    const trades = wholeWheel();
    const wheel = ok(trades);
    expect(trades.map((t) => wheel.results.get(t.id)?.pnl)).toEqual([null, 199, null, 99, null, 349]);
    expect(wheel.cycles).toHaveLength(1);
    const [cycle] = wheel.cycles;
    expect(cycle!.realisedPnl).toBeCloseTo(647, 9);
    expect(cycle!.cash).toBeCloseTo(647, 9);
    expect(cycle!.premiumNet).toBeCloseTo(199 + 99 + 149, 9);
    expect(cycle!.closedAt).toBe(at("2026-03-27"));
    expect(wheel.lots).toEqual([]);
    expect(wheel.legs).toEqual([]);
  });

  it("return on capital and annualised return on collateral-days", () => {
    const [cycle] = ok(wholeWheel()).cycles;
    expect(cycle!.capital).toBe(5000);
    expect(cycle!.collateralDays).toBeCloseTo(405_000, 6);
    const figures = cycleFigures(cycle!);
    expect(figures.returnOnCapital).toBeCloseTo(0.1294, 9);
    expect(figures.annualisedReturn).toBeCloseTo((647 / 405_000) * 365, 9);
    expect(figures.annualisedReturn).toBeCloseTo(0.5831, 4);
  });

  it("adjusted cost basis per share: strike minus every premium of the cycle, net of fees", () => {
    const trades = wholeWheel();
    // After the first call expired: 50 − 1.99 − 0.99 = 47.02.
    const afterFirstCall = ok(trades.slice(0, 4), at("2026-02-28"));
    expect(afterFirstCall.lots).toEqual([{ ticker: "KO", shares: 100, cost: 5000 }]);
    expect(afterFirstCall.cycles[0]!.adjustedCostBasis).toBeCloseTo(47.02, 9);
    // With the second call sold: 47.02 − 1.49 = 45.53.
    expect(ok(trades.slice(0, 5), at("2026-03-03")).cycles[0]!.adjustedCostBasis).toBeCloseTo(45.53, 9);
  });

  it("the cycle step by step: the adjusted basis after each trade, two calls included", () => {
    const trades = wholeWheel();
    const [cycle] = ok(trades).cycles;
    // Put sold: no shares yet. Assigned: 50 − 1.99 = 48.01. First call sold: 48.01 − 0.99 = 47.02; it expires
    // (no fee): 47.02. Second call sold: 47.02 − 1.49 = 45.53. Called away: no shares left.
    expect(cycle!.steps.map((s) => s.tradeId)).toEqual(trades.map((t) => t.id));
    expect(cycle!.steps.map((s) => s.shares)).toEqual([0, 100, 100, 100, 100, 0]);
    const basis = cycle!.steps.map((s) =>
      s.adjustedCostBasis === null ? null : Math.round(s.adjustedCostBasis * 100) / 100,
    );
    expect(basis).toEqual([null, 48.01, 47.02, 47.02, 45.53, null]);
  });

  it("a new put after being called away starts a second cycle", () => {
    const trades = [
      ...wholeWheel(),
      trade({ kind: "sell_to_open", ...put(50, "2026-04-24"), price: 1, tradedAt: at("2026-03-30") }),
    ];
    const wheel = ok(trades);
    expect(wheel.cycles.map((c) => [c.id, c.closedAt === null])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});

describe("a roll", () => {
  /**
   *  5 Jan sell 1 put 50 (30 Jan) @ 2.00, fee 1      +199.00
   * 20 Jan buy it back @ 3.00, fee 1                 −301.00  P/L 199 − 301 = −102.00
   * 20 Jan sell 1 put 48 (27 Feb) @ 3.50, fee 1      +349.00  (rolled from the buy-back)
   * 27 Feb it expires                                          P/L 349.00
   * One cycle: premium net 199 − 301 + 349 = 247.00, realised −102 + 349 = 247.00.
   */
  it("keeps one cycle across the buy-to-close and the linked sell-to-open", () => {
    const close = trade({
      kind: "buy_to_close",
      ...put(50, "2026-01-30"),
      price: 3,
      fees: 1,
      tradedAt: at("2026-01-20"),
    });
    const trades = [
      trade({ kind: "sell_to_open", ...put(50, "2026-01-30"), price: 2, fees: 1, tradedAt: at("2026-01-05") }),
      close,
      trade({
        kind: "sell_to_open",
        ...put(48, "2026-02-27"),
        price: 3.5,
        fees: 1,
        tradedAt: at("2026-01-20"),
        rolledFrom: close.id,
      }),
      trade({ kind: "expire", ...put(48, "2026-02-27"), tradedAt: at("2026-02-27") }),
    ];
    const wheel = ok(trades);
    expect(trades.map((t) => wheel.results.get(t.id)?.pnl)).toEqual([null, -102, null, 349]);
    expect(wheel.cycles).toHaveLength(1);
    expect(wheel.cycles[0]!.realisedPnl).toBeCloseTo(247, 9);
    expect(wheel.cycles[0]!.premiumNet).toBeCloseTo(247, 9);
    // Collateral: 5,000 × 15 d + 4,800 × 38 d = 75,000 + 182,400 = 257,400.
    expect(wheel.cycles[0]!.collateralDays).toBeCloseTo(257_400, 6);
    expect(wheel.cycles[0]!.capital).toBe(5000);
  });

  it("without the link the buy-back ends the cycle", () => {
    const wheel = ok([
      trade({ kind: "sell_to_open", ...put(50, "2026-01-30"), price: 2, tradedAt: at("2026-01-05") }),
      trade({ kind: "buy_to_close", ...put(50, "2026-01-30"), price: 3, tradedAt: at("2026-01-20") }),
      trade({ kind: "sell_to_open", ...put(48, "2026-02-27"), price: 3.5, tradedAt: at("2026-01-20") }),
    ]);
    expect(wheel.cycles).toHaveLength(2);
  });
});

describe("an open short put at the mark", () => {
  /**
   * Sold 2 puts 45 @ 1.20, fees 1.30: premium kept 2 × 100 × 1.20 − 1.30 = 238.70; collateral 45 × 100 × 2 = 9,000.
   * Mark 0.40: buying back costs 2 × 100 × 0.40 = 80, so P/L at the mark 158.70 = 66.49 % of the 238.70 maximum.
   */
  it("collateral in use, premium kept, days held, P/L and % of max profit", () => {
    const wheel = ok(
      [
        trade({
          kind: "sell_to_open",
          ...put(45, "2026-06-19"),
          quantity: 2,
          price: 1.2,
          fees: 1.3,
          tradedAt: at("2026-05-22"),
        }),
      ],
      at("2026-06-01"),
    );
    const [leg] = wheel.legs;
    const figures = legAtMark(leg!, 0.4, at("2026-06-01"));
    expect(figures.collateral).toBe(9000);
    expect(figures.premiumKept).toBeCloseTo(238.7, 9);
    expect(figures.daysHeld).toBe(10);
    expect(figures.pnlAtMark).toBeCloseTo(158.7, 9);
    expect(figures.pctMaxProfit).toBeCloseTo(158.7 / 238.7, 9);
    expect(legAtMark(leg!, null, at("2026-06-01")).pnlAtMark).toBeNull();
    // An open cycle counts collateral up to now: 9,000 × 10 d.
    expect(wheel.cycles[0]!.collateralDays).toBeCloseTo(90_000, 6);
  });
});

describe("refusals", () => {
  const now = at("2026-06-01");
  const reason = (trades: WheelTrade[]) => {
    const result = replay(trades, now);
    return result.ok ? null : result.refusal.reason;
  };

  it("an assignment without an open put", () => {
    expect(reason([trade({ kind: "assignment", ...put(50, "2026-01-30"), tradedAt: at("2026-01-30") })])).toBe(
      "Assignment needs an open short put: there is no open short KO 50 put expiring 2026-01-30 to close",
    );
  });

  it("a close larger than the position", () => {
    expect(
      reason([
        trade({ kind: "sell_to_open", ...put(50, "2026-01-30"), price: 2, tradedAt: at("2026-01-05") }),
        trade({ kind: "buy_to_close", ...put(50, "2026-01-30"), quantity: 2, price: 1, tradedAt: at("2026-01-06") }),
      ]),
    ).toBe("Closing 2 contracts is more than the open position of 1 contract (KO 50 put expiring 2026-01-30)");
    expect(
      reason([
        trade({ kind: "stock_buy", quantity: 10, price: 60, tradedAt: at("2026-01-05") }),
        trade({ kind: "stock_sell", quantity: 11, price: 61, tradedAt: at("2026-01-06") }),
      ]),
    ).toBe("Selling 11 shares of KO is more than the 10 shares held");
  });

  it("a trade dated in the future", () => {
    expect(reason([trade({ kind: "stock_buy", quantity: 1, price: 60, tradedAt: now + 60_000 })])).toBe(
      "A trade cannot be dated in the future",
    );
  });

  it("called away without the shares, and a put expiring before its date", () => {
    expect(
      reason([
        trade({ kind: "sell_to_open", ...call(55, "2026-02-27"), price: 1, tradedAt: at("2026-02-02") }),
        trade({ kind: "exercise", ...call(55, "2026-02-27"), tradedAt: at("2026-02-27") }),
      ]),
    ).toBe("Called away takes 100 shares of KO; 0 shares are held");
    expect(
      reason([
        trade({ kind: "sell_to_open", ...put(50, "2026-01-30"), price: 2, tradedAt: at("2026-01-05") }),
        trade({ kind: "expire", ...put(50, "2026-01-30"), tradedAt: at("2026-01-20") }),
      ]),
    ).toBe("The KO 50 put expiring 2026-01-30 cannot expire before 2026-01-30");
  });
});

describe("period figures", () => {
  it("realised P/L, win rate and by ticker from a date; premium this month and year, net of fees and buy-backs", () => {
    const trades = [
      ...wholeWheel(),
      // A losing put on PEP: +99 then bought back for −201 → P/L −102.
      trade({
        ticker: "PEP",
        kind: "sell_to_open",
        ...put(160, "2026-04-17"),
        price: 1,
        fees: 1,
        tradedAt: at("2026-03-10"),
      }),
      trade({
        ticker: "PEP",
        kind: "buy_to_close",
        ...put(160, "2026-04-17"),
        price: 2,
        fees: 1,
        tradedAt: at("2026-03-20"),
      }),
    ];
    const wheel = ok(trades);
    const all = periodStats(trades, wheel, null, at("2026-03-31"));
    // Closing trades: 199, 99, 349, −102 → 3 of 4 won; 199 + 99 + 349 − 102 = 545.
    expect(all.realisedPnl).toBe(545);
    expect(all.closingTrades).toBe(4);
    expect(all.winningTrades).toBe(3);
    // Cycles: KO closed at +647, PEP at −102 → 1 of 2.
    expect(all.closedCycles).toBe(2);
    expect(all.winRate).toBe(0.5);
    expect(all.byTicker).toEqual([
      { ticker: "KO", realisedPnl: 647 },
      { ticker: "PEP", realisedPnl: -102 },
    ]);
    // March: KO call +149, PEP put +99 and −201 → 47. The year adds January's +199 and February's +99: 345.
    expect(all.premiumMonth).toBe(47);
    expect(all.premiumYear).toBe(345);
    // From 1 March: 349 and −102.
    const march = periodStats(trades, wheel, at("2026-03-01"), at("2026-03-31"));
    expect(march.realisedPnl).toBe(247);
    expect(march.winRate).toBe(0.5);
  });

  it("counts a rolled position as one cycle: the roll's buy-back at a loss is not a losing trade of its own", () => {
    const close = trade({
      kind: "buy_to_close",
      ...put(50, "2026-01-30"),
      price: 3,
      fees: 1,
      tradedAt: at("2026-01-20"),
    });
    const trades = [
      trade({ kind: "sell_to_open", ...put(50, "2026-01-30"), price: 2, fees: 1, tradedAt: at("2026-01-05") }),
      close,
      trade({
        kind: "sell_to_open",
        ...put(48, "2026-02-27"),
        price: 3.5,
        fees: 1,
        tradedAt: at("2026-01-20"),
        rolledFrom: close.id,
      }),
      trade({ kind: "expire", ...put(48, "2026-02-27"), tradedAt: at("2026-02-27") }),
    ];
    const stats = periodStats(trades, ok(trades), null, at("2026-03-31"));
    // Closing trades −102 (the buy-back) and +349: one of two "won"; the cycle made 247: won.
    expect(stats.closingTrades).toBe(2);
    expect(stats.winningTrades).toBe(1);
    expect(stats.closedCycles).toBe(1);
    expect(stats.winRate).toBe(1);
  });
});
