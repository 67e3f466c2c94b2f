import { describe, expect, it } from "vitest";
import { dayNumberOf } from "#provider/market/calendar.ts";
import type { OptionQuote } from "#provider/market/port.ts";
import { premiumOverLife, rollCandidates, testedOrLosing, type RollInput } from "./rolls.ts";
import { replay, type WheelTrade } from "./wheel.ts";

const at = (date: string) => Date.parse(`${date}T15:00:00Z`);
const put = (strike: number, bid: number, ask: number): OptionQuote => ({
  symbol: `KO${strike}`,
  type: "put",
  strike,
  bid,
  ask,
  last: bid,
  volume: 10,
  openInterest: 100,
  impliedVolatility: 0.3,
});

/**
 * The worked example (docs/decisions/0036): a KO 50 put sold on 5 Jan at 2.00 ($0.65 fee), rolled
 * on 20 Jan (bought back at 3.00 + $0.65, sold the 27 Feb 50 put at 3.60 − $0.65).
 *   premium over the life = (360 − 0.65) + (200 − 0.65 − 300 − 0.65) = 359.35 − 101.30 = 258.05 → 2.5805 a share.
 */
const JOURNAL: WheelTrade[] = [
  {
    id: 1,
    kind: "sell_to_open",
    ticker: "KO",
    optionType: "put",
    strike: 50,
    expiry: "2026-01-30",
    quantity: 1,
    price: 2,
    fees: 0.65,
    tradedAt: at("2026-01-05"),
    rolledFrom: null,
  },
  {
    id: 2,
    kind: "buy_to_close",
    ticker: "KO",
    optionType: "put",
    strike: 50,
    expiry: "2026-01-30",
    quantity: 1,
    price: 3,
    fees: 0.65,
    tradedAt: at("2026-01-20"),
    rolledFrom: null,
  },
  {
    id: 3,
    kind: "sell_to_open",
    ticker: "KO",
    optionType: "put",
    strike: 50,
    expiry: "2026-02-27",
    quantity: 1,
    price: 3.6,
    fees: 0.65,
    tradedAt: at("2026-01-20"),
    rolledFrom: 2,
  },
];

/**
 * Now (2 Feb, stock at 48) the 27 Feb 50 put asks 4.10; commission $0.65 a contract on each trade,
 * so a roll's net credit a share is new bid − 4.10 − 0.013.
 */
function input(overrides: Partial<RollInput> = {}): RollInput {
  return {
    ticker: "KO",
    optionType: "put",
    strike: 50,
    expiry: "2026-02-27",
    contracts: 2,
    premiumCollected: 2.5805,
    closeAsk: 4.1,
    commission: 0.65,
    spot: 48,
    asOf: new Date("2026-02-02T15:00:00Z"),
    today: dayNumberOf("2026-02-02"),
    rate: 0.04,
    dividendYield: 0,
    earningsDate: "2026-04-21",
    expirations: [
      // Same expiry: not a roll out.
      { expiration: "2026-02-27", options: [put(50, 4.0, 4.1), put(47.5, 2.2, 2.3)] },
      {
        expiration: "2026-03-27",
        // 50: 4.80 − 4.10 − 0.013 = 0.687 → kept. 47.5: 3.50 − 4.113 < 0 → dropped. 52.5: above the strike → never.
        options: [put(52.5, 6.5, 6.7), put(50, 4.8, 5.0), put(47.5, 3.5, 3.7)],
      },
      // 50: 5.50 − 4.113 = 1.387; 47.5: 4.40 − 4.113 = 0.287.
      { expiration: "2026-04-24", options: [put(50, 5.5, 5.7), put(47.5, 4.4, 4.6)] },
      // 47.5 at the same bid as April: same breakeven, fewer dollars a day.
      { expiration: "2026-05-01", options: [put(47.5, 4.4, 4.7)] },
      // Beyond 90 days from 2 Feb.
      { expiration: "2026-06-18", options: [put(50, 9, 9.5)] },
    ],
    ...overrides,
  };
}

describe("premium over the position's life", () => {
  it("adds the realised P/L of each buy-to-close the open put was rolled from", () => {
    const result = replay(JOURNAL, at("2026-02-02"));
    if (!result.ok) throw new Error(result.refusal.reason);
    const leg = result.wheel.legs[0]!;
    expect(leg.premium).toBeCloseTo(359.35, 6);
    const total = premiumOverLife(leg, JOURNAL, (id) => result.wheel.results.get(id)?.pnl ?? null);
    expect(total).toBeCloseTo(258.05, 6);
  });

  it("is the open put's own premium when it was never rolled", () => {
    const once = JOURNAL.slice(0, 1);
    const result = replay(once, at("2026-01-06"));
    if (!result.ok) throw new Error(result.refusal.reason);
    expect(premiumOverLife(result.wheel.legs[0]!, once, () => null)).toBeCloseTo(199.35, 6);
  });
});

describe("roll candidates", () => {
  it("keeps later puts at or below the strike for a net credit, with their figures", () => {
    const { candidates, closingCost } = rollCandidates(input());
    // Closing the 2 contracts: 4.10 × 100 × 2 + 0.65 × 2.
    expect(closingCost).toBe(821.3);
    expect(candidates.map((c) => `${c.expiry} ${c.strike}`)).toEqual([
      "2026-04-24 47.5", // breakeven 47.5 − (2.5805 + 0.287) = 44.6325 → 44.63, 28.70 / 56 = 0.51 a day
      "2026-05-01 47.5", // 44.63 too, 28.70 / 63 = 0.46 a day
      "2026-04-24 50", // 50 − (2.5805 + 1.387) = 46.0325 → 46.03
      "2026-03-27 50", // 50 − (2.5805 + 0.687) = 46.7325 → 46.73
    ]);
    const march = candidates.find((c) => c.expiry === "2026-03-27")!;
    expect(march).toMatchObject({
      rank: 4,
      bid: 4.8,
      net_credit: 0.687,
      net_credit_per_contract: 68.7,
      net_credit_total: 137.4,
      new_breakeven: 46.73,
      extra_days: 28,
      days_to_expiry: 53,
      credit_per_extra_day: 2.45, // 68.70 / 28 = 2.4536
      earnings_before_expiry: false,
    });
    const april = candidates[0]!;
    expect(april).toMatchObject({ rank: 1, new_breakeven: 44.63, extra_days: 56, credit_per_extra_day: 0.51 });
    // The April and 1 May puts span the 21 April report.
    expect(april.earnings_before_expiry).toBe(true);
  });

  it("gives each candidate a risk-neutral chance of assignment and |delta| of the new put", () => {
    const { candidates } = rollCandidates(input());
    const april50 = candidates.find((c) => c.expiry === "2026-04-24" && c.strike === 50)!;
    const april47 = candidates.find((c) => c.expiry === "2026-04-24" && c.strike === 47.5)!;
    for (const c of [april50, april47]) {
      expect(c.abs_delta).toBeGreaterThan(0);
      expect(c.abs_delta).toBeLessThan(1);
      expect(c.assignment_probability).toBeGreaterThan(0);
      expect(c.assignment_probability).toBeLessThan(1);
    }
    // With the stock at 48, the 50 put is in the money: assignment is likelier than for the 47.5.
    expect(april50.assignment_probability!).toBeGreaterThan(0.5);
    expect(april50.assignment_probability!).toBeGreaterThan(april47.assignment_probability!);
  });

  it("finds none when no later put's bid pays for the buy-back and both commissions", () => {
    // Asking 6.00 to close: the best bid, 5.50, leaves 5.50 − 6.00 − 0.013 < 0.
    const { candidates, closingCost } = rollCandidates(input({ closeAsk: 6, contracts: 1 }));
    expect(candidates).toEqual([]);
    expect(closingCost).toBe(600.65);
  });

  it("leaves out a roll whose credit is under a cent a contract", () => {
    // 4.80 − 4.787 − 0.013 = 0: no credit.
    const { candidates } = rollCandidates(input({ closeAsk: 4.787, expirations: [input().expirations[1]!] }));
    expect(candidates).toEqual([]);
  });
});

describe("tested or losing", () => {
  it("is tested with the stock within 3% above the strike or below it, losing with the mark above the premium", () => {
    // 50 × 1.03 = 51.50.
    expect(testedOrLosing({ optionType: "put", strike: 50, spot: 51.5, mark: 1, premiumPerShare: 2 })).toEqual({
      tested: true,
      losing: false,
    });
    expect(testedOrLosing({ optionType: "put", strike: 50, spot: 51.6, mark: 1, premiumPerShare: 2 })).toEqual({
      tested: false,
      losing: false,
    });
    expect(testedOrLosing({ optionType: "put", strike: 50, spot: 55, mark: 2.1, premiumPerShare: 2 })).toEqual({
      tested: false,
      losing: true,
    });
    expect(testedOrLosing({ optionType: "put", strike: 50, spot: null, mark: null, premiumPerShare: 2 })).toEqual({
      tested: false,
      losing: false,
    });
  });
});

describe("a covered call's roll (ADR 0103)", () => {
  const call = (strike: number, bid: number, ask: number): OptionQuote => ({ ...put(strike, bid, ask), type: "call" });
  /**
   * 200 KO at an adjusted basis of 63.22 (ADR 0079's wheel), a 65 call expiring 27 Feb, the stock at
   * 66.40: the call asks 2.10 to buy back; $0.65 a contract on each trade (0.013 a share for both).
   */
  const callInput = (overrides: Partial<RollInput> = {}): RollInput =>
    input({
      optionType: "call",
      strike: 65,
      premiumCollected: 1.1,
      closeAsk: 2.1,
      spot: 66.4,
      adjustedCostBasis: 63.22,
      earningsDate: null,
      expirations: [
        {
          expiration: "2026-03-27",
          // 67.5: 1.40 − 2.113 < 0 → dropped. 65: 2.90 − 2.113 = 0.787. 62.5: below the strike → never.
          options: [call(67.5, 1.4, 1.5), call(65, 2.9, 3.0), call(62.5, 4.6, 4.8), put(65, 1.0, 1.1)],
        },
        // 67.5: 2.30 − 2.113 = 0.187; 70: 1.20 − 2.113 < 0 → dropped.
        { expiration: "2026-04-24", options: [call(67.5, 2.3, 2.4), call(70, 1.2, 1.3)] },
      ],
      ...overrides,
    });

  it("keeps later calls at or above the strike, ranked by the gain a share if called away", () => {
    const { candidates, closingCost } = rollCandidates(callInput());
    // Closing the 2 contracts: 2.10 × 100 × 2 + 0.65 × 2.
    expect(closingCost).toBe(421.3);
    expect(candidates.map((c) => `${c.expiry} ${c.strike}`)).toEqual([
      "2026-04-24 67.5", // 67.5 + 0.187 − 63.22 = 4.467 → 4.47 a share if called away
      "2026-03-27 65", // 65 + 0.787 − 63.22 = 2.567 → 2.57
    ]);
    expect(candidates[0]).toMatchObject({
      rank: 1,
      occ_symbol: "KO260424C00067500",
      net_credit: 0.187,
      net_credit_total: 37.4,
      gain_if_called_away: 4.47,
      new_breakeven: null,
      credit_per_extra_day: 0.33, // 18.70 / 56
    });
    expect(candidates[1]).toMatchObject({ gain_if_called_away: 2.57, new_breakeven: null, extra_days: 28 });
  });

  it("gives the chance of being called, N(d2): likelier for the in-the-money 65 than the 67.5", () => {
    const { candidates } = rollCandidates(callInput());
    const [up, same] = [candidates[0]!, candidates[1]!];
    expect(same.assignment_probability!).toBeGreaterThan(0.5);
    expect(up.assignment_probability!).toBeLessThan(same.assignment_probability!);
    // A call's delta, not a put's: above a half in the money.
    expect(same.abs_delta!).toBeGreaterThan(0.5);
  });

  it("is tested with the stock within 3 % below the strike or above it", () => {
    // 65 × 0.97 = 63.05.
    expect(testedOrLosing({ optionType: "call", strike: 65, spot: 63.05, mark: 1, premiumPerShare: 2 }).tested).toBe(
      true,
    );
    expect(testedOrLosing({ optionType: "call", strike: 65, spot: 63, mark: 1, premiumPerShare: 2 }).tested).toBe(
      false,
    );
  });
});
