import { describe, expect, it } from "vitest";
import type { CallFilters } from "#contract/covered-calls.ts";
import { DEFAULT_CALL_FILTERS } from "#contract/call-filter-labels.ts";
import { nyClock } from "#provider/market/calendar.ts";
import type { OptionQuote } from "#provider/market/port.ts";
import { bsPrice } from "#provider/options/black-scholes.ts";
import {
  contractsAvailable,
  coveredCallsFor,
  earlyAssignmentRisk,
  returnIfCalled,
  returnIfUnchanged,
  type CallHolding,
  type CallMarket,
} from "./covered-calls.ts";

const DAY_MS = 86_400_000;
const EXPIRY = "2026-12-18";
/** 18 Dec 2026 16:00 New York (EST) is 21:00 UTC; a fifth of a year (73 days) before it. */
const AS_OF = new Date(Date.parse(`${EXPIRY}T21:00:00Z`) - 0.2 * 365 * DAY_MS);
const TODAY = nyClock(AS_OF).dayNumber;

const filters = (changes: Partial<CallFilters> = {}): CallFilters => ({
  ...DEFAULT_CALL_FILTERS,
  dte_max: 90,
  delta_min: 0,
  delta_max: 0.6,
  min_open_interest: 0,
  max_spread: 0.5,
  ...changes,
});

/** A call quoted a dime either side of its Black-Scholes price at 20 % volatility (r 5 %, no dividend). */
function call(strike: number, spot = 100): OptionQuote {
  const fair = bsPrice("call", { spot, strike, years: 0.2, rate: 0.05, dividendYield: 0, volatility: 0.2 });
  return {
    symbol: `X${strike}`,
    type: "call",
    strike,
    bid: Math.round((fair - 0.05) * 100) / 100,
    ask: Math.round((fair + 0.05) * 100) / 100,
    last: fair,
    volume: 10,
    openInterest: 500,
    impliedVolatility: 0.2,
  };
}

const market = (options: OptionQuote[], changes: Partial<CallMarket> = {}): CallMarket => ({
  spot: 100,
  asOf: AS_OF,
  today: TODAY,
  rate: 0.05,
  dividendYield: 0,
  expirations: [{ expiration: EXPIRY, options }],
  earningsDate: null,
  exDividend: null,
  ...changes,
});
const holding = (changes: Partial<CallHolding> = {}): CallHolding => ({
  ticker: "KO",
  shares: 200,
  adjustedBasis: 95,
  baseValue: null,
  openCallContracts: 0,
  ...changes,
});

describe("covered-call figures", () => {
  it("return if called away: premium + strike − adjusted basis, net of commission, over the basis", () => {
    // 200 KO at an adjusted basis of $63.22; a 67 call at a bid of 0.85, commission $0.65 a contract:
    // (0.85 + 67 − 63.22 − 0.0065) ÷ 63.22 = 4.6235 ÷ 63.22 = 7.3134 %; over 30 days, × 365 ÷ 30 = 88.98 % a year.
    const r = returnIfCalled({ bid: 0.85, strike: 67, adjustedBasis: 63.22, commission: 0.65 })!;
    expect(r).toBeCloseTo(0.073134, 6);
    expect((r * 365) / 30).toBeCloseTo(0.88979, 5);
    expect(returnIfCalled({ bid: 1, strike: 10, adjustedBasis: 0, commission: 0.65 })).toBeNull();
  });

  it("return if unchanged counts only the time value at the bid, over the shares' value today", () => {
    // Out of the money (spot 68.30, strike 70, bid 0.60): (0.60 − 0.0065) ÷ 68.30 = 0.8690 %.
    expect(returnIfUnchanged({ bid: 0.6, strike: 70, spot: 68.3, commission: 0.65 })).toBeCloseTo(0.00869, 5);
    // In the money (spot 68.30, strike 65, bid 3.60): 3.30 is the shares' own value, 0.30 time value:
    // (0.30 − 0.0065) ÷ 68.30 = 0.4297 %, not 3.60 ÷ 68.30 = 5.3 %.
    expect(returnIfUnchanged({ bid: 3.6, strike: 65, spot: 68.3, commission: 0.65 })).toBeCloseTo(0.004297, 6);
  });

  it("chance of being called is the risk-neutral N(d2), next to a larger delta", () => {
    // Spot 100, strike 105, T = 0.2, r = 5 %, q = 0, σ = 20 % (the mid's implied volatility), σ√T = 0.089443:
    // d2 = (ln(100/105) + (0.05 − 0.02) × 0.2) ÷ 0.089443 = (−0.048790 + 0.006) ÷ 0.089443 = −0.47841;
    // N(−0.47841) = 0.31618. Delta is N(d1) = N(d2 + σ√T) = N(−0.38897) = 0.34865, above it.
    const { calls } = coveredCallsFor(holding(), market([call(105)]), filters(), 0.65);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.chance_called).toBeCloseTo(0.31618, 3);
    expect(calls[0]!.delta).toBeCloseTo(0.34865, 3);
    expect(calls[0]!.days_to_expiry).toBe(73);
  });

  it("breakeven: the adjusted basis less the bid net of commission", () => {
    const { calls } = coveredCallsFor(holding({ adjustedBasis: 95 }), market([call(105)]), filters(), 0.65);
    const c = calls[0]!;
    expect(c.breakeven).toBeCloseTo(95 - (c.bid - 0.0065), 9);
  });
});

describe("the call's early-assignment rule", () => {
  // KO at 70, a 65 call (5.00 in the money), ex-dividend 10 Dec 2026 at $0.50, expiry 18 Dec.
  const base = {
    spot: 70,
    strike: 65,
    expiry: EXPIRY,
    today: TODAY,
    exDividend: { date: "2026-12-10", amount: 0.5 },
  };
  it("flags an in-the-money call whose time value at the mid is below the dividend", () => {
    // Mid 5.40: time value 0.40 < 0.50, exercising the day before the ex-date pays the holder 0.10.
    expect(earlyAssignmentRisk({ ...base, mid: 5.4 })).toBe(true);
  });
  it("does not flag it when the time value is above the dividend, out of the money, or ex-date after expiry", () => {
    // Mid 5.60: time value 0.60 > 0.50, selling the call beats exercising.
    expect(earlyAssignmentRisk({ ...base, mid: 5.6 })).toBe(false);
    expect(earlyAssignmentRisk({ ...base, strike: 72, mid: 0.2 })).toBe(false);
    expect(earlyAssignmentRisk({ ...base, mid: 5.4, exDividend: { date: "2026-12-21", amount: 0.5 } })).toBe(false);
    expect(earlyAssignmentRisk({ ...base, mid: 5.4, exDividend: null })).toBe(false);
  });
});

describe("the flag on a priced call", () => {
  it("is the rule above: an in-the-money call whose time value at the mid is below the dividend", () => {
    // Strike 90 with the stock at 100: about $1.2 of the mid is time value (20 % volatility, 73 days).
    const itm = call(90);
    const timeValue = (itm.bid + itm.ask) / 2 - 10;
    const flagOf = (amount: number) =>
      coveredCallsFor(
        holding({ adjustedBasis: 80 }),
        market([itm], { exDividend: { date: "2026-12-01", amount } }),
        filters({ delta_max: 1 }),
        0.65,
      ).calls[0]!;
    expect(flagOf(timeValue + 0.5).early_assignment_risk).toBe(true);
    expect(flagOf(timeValue - 0.5).early_assignment_risk).toBe(false);
    expect(flagOf(timeValue + 0.5).mid - flagOf(timeValue + 0.5).intrinsic_value).toBeCloseTo(timeValue, 9);
  });
});

describe("which calls a holding gets", () => {
  const strikes = [90, 95, 100, 105, 110, 115];
  it("contracts: one per 100 shares, less the calls already open", () => {
    expect(contractsAvailable(250, 0)).toBe(2);
    expect(contractsAvailable(200, 1)).toBe(1);
    expect(contractsAvailable(200, 2)).toBe(0);
    expect(
      coveredCallsFor(holding({ openCallContracts: 2 }), market(strikes.map((s) => call(s))), filters(), 0.65),
    ).toEqual({ calls: [], nearest: null });
  });

  it("only strikes at or above the adjusted basis by default, best three per expiry", () => {
    const { calls } = coveredCallsFor(
      holding({ adjustedBasis: 101 }),
      market(strikes.map((s) => call(s))),
      filters(),
      0.65,
    );
    expect(calls.map((c) => c.strike).sort()).toEqual([105, 110, 115]);
    expect(calls.every((c) => c.return_if_called! > 0)).toBe(true);
    expect(calls.map((c) => c.rank)).toEqual([1, 2, 3]);
  });

  it("with the basis filter off, strikes below the basis come back", () => {
    const options = market(strikes.map((s) => call(s)));
    const on = coveredCallsFor(holding({ adjustedBasis: 106 }), options, filters(), 0.65);
    const off = coveredCallsFor(holding({ adjustedBasis: 106 }), options, filters({ at_or_above_basis: false }), 0.65);
    expect(on.calls.map((c) => c.strike)).not.toContain(105);
    const below = off.calls.find((c) => c.strike === 105)!;
    // Called away at 105 with a basis of 106 loses unless the premium makes up the dollar.
    expect(below.return_if_called).toBeCloseTo((below.bid + 105 - 106 - 0.0065) / 106, 9);
  });

  it("at or above my base value, when asked", () => {
    const { calls } = coveredCallsFor(
      holding({ adjustedBasis: 90, baseValue: 112 }),
      market(strikes.map((s) => call(s))),
      filters({ at_or_above_base_value: true }),
      0.65,
    );
    expect(calls.map((c) => c.strike)).toEqual([115]);
  });

  it("when the basis leaves nothing, names the nearest call below it", () => {
    const { calls, nearest } = coveredCallsFor(
      holding({ adjustedBasis: 120 }),
      market(strikes.map((s) => call(s))),
      filters(),
      0.65,
    );
    expect(calls).toEqual([]);
    expect(nearest?.strike).toBe(115);
  });

  it("skips expiries that span earnings, and flags the ex-dividend date before expiry", () => {
    const options = strikes.map((s) => call(s));
    expect(coveredCallsFor(holding(), market(options, { earningsDate: "2026-11-01" }), filters(), 0.65).calls).toEqual(
      [],
    );
    const { calls } = coveredCallsFor(
      holding(),
      market(options, { exDividend: { date: "2026-12-01", amount: 0.4 } }),
      filters(),
      0.65,
    );
    expect(calls.every((c) => c.ex_dividend_before_expiry)).toBe(true);
  });
});
