/**
 * The covered-call core, pure (docs/decisions/0079-covered-call-ranking-and-figures.md): from a
 * holding (shares and the journal's adjusted basis), the stock's option chain and the trader's call
 * filters, every call the trader could sell against the shares, with what a covered-call seller
 * checks, ranked and cut to the best few per expiry. No I/O, so the bench and the tests drive it.
 * Money per share unless named; one commission (dollars per contract) on the sale.
 */
import type { CallFilters, CoveredCall } from "#contract/covered-calls.ts";
import { dayNumberOf, yearsToExpiry } from "#provider/market/calendar.ts";
import type { OptionExpiration, OptionQuote } from "#provider/market/port.ts";
import { bsGreeks } from "#provider/options/black-scholes.ts";
import { impliedVolatility } from "#provider/options/implied-volatility.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import { probabilityAbove } from "#provider/options/probability.ts";
import { PER_EXPIRY, SCORE } from "./selection.ts";

const SHARES = 100;
/** An early-assignment risk halves a call's score: being called before expiry ends the income early. */
const EARLY_ASSIGNMENT_WEIGHT = 0.5;

export interface CallHolding {
  ticker: string;
  shares: number;
  /** The journal's adjusted cost basis per share. */
  adjustedBasis: number;
  /** The trader's base value of the stock; null when none is set. */
  baseValue: number | null;
  /** Short call contracts already open on the ticker. */
  openCallContracts: number;
}

export interface CallMarket {
  spot: number;
  asOf: Date;
  /** Calendar day number of today in New York. */
  today: number;
  rate: number;
  dividendYield: number;
  expirations: readonly OptionExpiration[];
  earningsDate: string | null;
  exDividend: { date: string; amount: number } | null;
}

/** How many calls the shares still cover: one per 100 shares, less the calls already sold. */
export function contractsAvailable(shares: number, openCallContracts: number): number {
  return Math.max(0, Math.floor(shares / SHARES) - openCallContracts);
}

/**
 * Called away at expiry: the premium and the strike against what the shares cost net of the cycle's
 * premiums, less the sale's commission; over the adjusted basis. Null without a positive basis.
 */
export function returnIfCalled(p: { bid: number; strike: number; adjustedBasis: number; commission: number }) {
  if (!(p.adjustedBasis > 0)) return null;
  return (p.bid + p.strike - p.adjustedBasis - p.commission / SHARES) / p.adjustedBasis;
}

/**
 * The stock ends where it is: the call's time value at the bid less the commission, over the
 * shares' value today. An in-the-money call's intrinsic value is the shares' own value handed over,
 * never income (the same rule as a put's, docs/product.md#screens-option-card).
 */
export function returnIfUnchanged(p: { bid: number; strike: number; spot: number; commission: number }) {
  const timeValue = Math.max(0, p.bid - Math.max(0, p.spot - p.strike));
  return (timeValue - p.commission / SHARES) / p.spot;
}

/**
 * The covered call's early-assignment rule, the one the alerts on open calls use (ADR 0077): in the
 * money, and its time value at the mid below the next dividend, with the ex-date still to come and
 * on or before expiry. The holder then exercises the day before the ex-date.
 */
export function earlyAssignmentRisk(p: {
  spot: number;
  strike: number;
  mid: number;
  expiry: string;
  today: number;
  exDividend: { date: string; amount: number } | null;
}): boolean {
  if (!p.exDividend || !(p.spot > p.strike)) return false;
  const exDay = dayNumberOf(p.exDividend.date);
  if (exDay < p.today || exDay > dayNumberOf(p.expiry)) return false;
  const timeValue = Math.max(0, p.mid - (p.spot - p.strike));
  return timeValue < p.exDividend.amount;
}

/** IV from the mid, else the vendor's; null when neither is usable. */
function volatilityOf(option: OptionQuote, years: number, market: CallMarket): number | null {
  const mid = (option.bid + option.ask) / 2;
  if (mid > 0 && years > 0) {
    try {
      return impliedVolatility("call", mid, {
        spot: market.spot,
        strike: option.strike,
        years,
        rate: market.rate,
        dividendYield: market.dividendYield,
      });
    } catch {
      // A mid below intrinsic or above the bound: fall back to the vendor's figure.
    }
  }
  return Number.isFinite(option.impliedVolatility) && option.impliedVolatility > 0 ? option.impliedVolatility : null;
}

interface Priced {
  call: Omit<CoveredCall, "rank">;
  score: number;
  passesFloor: boolean;
}

/** What is the same for every call of one expiry. */
interface ExpiryFacts {
  expiration: string;
  expiryDay: number;
  days: number;
  years: number;
  earningsBeforeExpiry: boolean;
  exDividendBeforeExpiry: boolean;
}

/**
 * One call that passed the quote's filters, through the model; null when its delta is outside the
 * filters' band (or no volatility fits it), which is most of a chain's far strikes.
 */
function price(
  holding: CallHolding,
  market: CallMarket,
  filters: CallFilters,
  commission: number,
  expiry: ExpiryFacts,
  option: OptionQuote,
): Priced | null {
  const { days, years } = expiry;
  const volatility = years > 0 ? volatilityOf(option, years, market) : null;
  if (volatility === null) return null;
  const model = {
    spot: market.spot,
    strike: option.strike,
    years,
    rate: market.rate,
    dividendYield: market.dividendYield,
    volatility,
  };
  const delta = bsGreeks("call", model).delta;
  if (delta < filters.delta_min - 1e-12 || delta > filters.delta_max + 1e-12) return null;
  const chanceCalled = probabilityAbove({ ...model, level: option.strike });
  const mid = (option.bid + option.ask) / 2;
  const spread = (option.ask - option.bid) / mid;
  const intrinsic = Math.max(0, market.spot - option.strike);
  const timeValue = Math.max(0, option.bid - intrinsic);
  const unchanged = returnIfUnchanged({ bid: option.bid, strike: option.strike, spot: market.spot, commission });
  const called = returnIfCalled({
    bid: option.bid,
    strike: option.strike,
    adjustedBasis: holding.adjustedBasis,
    commission,
  });
  const early =
    expiry.exDividendBeforeExpiry &&
    earlyAssignmentRisk({
      spot: market.spot,
      strike: option.strike,
      mid,
      expiry: expiry.expiration,
      today: market.today,
      exDividend: market.exDividend,
    });
  const call: Omit<CoveredCall, "rank"> = {
    occ_symbol: formatOccSymbol({
      ticker: holding.ticker,
      expiration: expiry.expiration,
      type: "call",
      strike: option.strike,
    }),
    expiry: expiry.expiration,
    strike: option.strike,
    bid: option.bid,
    ask: option.ask,
    mid,
    days_to_expiry: days,
    open_interest: Math.max(0, Math.floor(option.openInterest)),
    spread,
    intrinsic_value: intrinsic,
    time_value: timeValue,
    return_if_unchanged: unchanged,
    return_if_unchanged_monthly: (unchanged * 30) / days,
    return_if_unchanged_annualised: (unchanged * 365) / days,
    return_if_called: called,
    return_if_called_monthly: called === null ? null : (called * 30) / days,
    return_if_called_annualised: called === null ? null : (called * 365) / days,
    chance_called: chanceCalled,
    delta,
    breakeven: holding.adjustedBasis - (option.bid - commission / SHARES),
    ex_dividend_before_expiry: expiry.exDividendBeforeExpiry,
    early_assignment_risk: early,
    earnings_before_expiry: expiry.earningsBeforeExpiry,
  };
  const passesFloor =
    !(filters.at_or_above_basis && option.strike < holding.adjustedBasis - 1e-9) &&
    !(filters.at_or_above_base_value && holding.baseValue !== null && option.strike < holding.baseValue - 1e-9);
  // The monthly income if nothing moves, counted only while the shares stay (1 − N(d2)), and a wide market discounted.
  let score = (Math.max(0, call.return_if_unchanged_monthly) * (1 - chanceCalled)) / (1 + spread);
  if (expiry.earningsBeforeExpiry) score *= SCORE.earnings;
  if (early) score *= EARLY_ASSIGNMENT_WEIGHT;
  return { call, score, passesFloor };
}

/**
 * The holding's calls: those its filters let through, the best PER_EXPIRY of each expiry, soonest
 * expiry first and best first within it; and, when the strike floor (adjusted basis or base value)
 * alone left nothing, the nearest call below the floor that passes the rest.
 */
export function coveredCallsFor(
  holding: CallHolding,
  market: CallMarket,
  filters: CallFilters,
  commission: number,
): { calls: CoveredCall[]; nearest: CoveredCall | null } {
  if (contractsAvailable(holding.shares, holding.openCallContracts) === 0) return { calls: [], nearest: null };
  const passing: Priced[] = [];
  const belowFloor: Priced[] = [];
  const earningsDay = market.earningsDate ? dayNumberOf(market.earningsDate) : null;
  const exDay = market.exDividend ? dayNumberOf(market.exDividend.date) : null;
  for (const expiration of market.expirations) {
    const expiryDay = dayNumberOf(expiration.expiration);
    const days = expiryDay - market.today;
    if (days < filters.dte_min || days > filters.dte_max) continue;
    const spansEarnings = earningsDay !== null && earningsDay >= market.today && earningsDay <= expiryDay;
    if (filters.skip_earnings && spansEarnings) continue;
    const facts: ExpiryFacts = {
      expiration: expiration.expiration,
      expiryDay,
      days: Math.max(1, days),
      years: yearsToExpiry(market.asOf, expiration.expiration),
      earningsBeforeExpiry: spansEarnings,
      exDividendBeforeExpiry: exDay !== null && exDay >= market.today && exDay <= expiryDay,
    };
    for (const option of expiration.options) {
      if (option.type !== "call" || !(option.bid > 0)) continue;
      // What the quote alone decides, before the model runs (an IV solve per call is the cost here).
      const mid = (option.bid + option.ask) / 2;
      if (option.bid < filters.min_bid - 1e-9 || Math.floor(option.openInterest) < filters.min_open_interest) continue;
      if (!(mid > 0) || (option.ask - option.bid) / mid > filters.max_spread + 1e-12) continue;
      const priced = price(holding, market, filters, commission, facts, option);
      if (!priced) continue;
      (priced.passesFloor ? passing : belowFloor).push(priced);
    }
  }
  const byScore = (a: Priced, b: Priced) => b.score - a.score || b.call.strike - a.call.strike;
  passing.sort(byScore);
  const perExpiry = new Map<string, number>();
  const kept = passing.filter((p) => {
    const n = perExpiry.get(p.call.expiry) ?? 0;
    perExpiry.set(p.call.expiry, n + 1);
    return n < PER_EXPIRY;
  });
  const ranked = kept.map((p, i) => ({ ...p.call, rank: i + 1 }));
  ranked.sort((a, b) => (a.expiry < b.expiry ? -1 : a.expiry > b.expiry ? 1 : 0) || a.rank - b.rank);
  let nearest: CoveredCall | null = null;
  if (ranked.length === 0 && belowFloor.length > 0) {
    // Nearest below the floor: the highest strike; the better score among equals.
    const best = belowFloor.reduce((a, b) =>
      b.call.strike > a.call.strike || (b.call.strike === a.call.strike && b.score > a.score) ? b : a,
    );
    nearest = { ...best.call, rank: 1 };
  }
  return { calls: ranked, nearest };
}
