/**
 * The sell-put engine, pure: from an option chain, the stock's recent closes, the reference
 * intrinsic values and buy levels, and the stored at-the-money IV history, it prices every
 * eligible put, computes what a cash-secured put seller checks, ranks them and picks the best few
 * per expiry. No I/O here, so the benchmark and the tests drive it directly.
 */
import { bsGreeks } from "#provider/options/black-scholes.ts";
import { historicalVolatility } from "#provider/options/historical-volatility.ts";
import { impliedVolatility } from "#provider/options/implied-volatility.ts";
import { probabilityAbove, probabilityBelow, putBreakeven } from "#provider/options/probability.ts";
import { dayNumberOf, nyClock, yearsToExpiry } from "#provider/market/calendar.ts";
import { FALLBACK_RISK_FREE_RATE } from "#provider/market/rates.ts";
import type { OptionChain, OptionQuote } from "#provider/market/port.ts";
import { levelFlags, type BuyLevelName, type ReferenceLevels } from "./level-flags.ts";
import { DEFAULT_FILTERS, figuresOf, FILTER_LIMITS, selectFor, type PoolOption } from "./selection.ts";

export { buyLevelAtOrAbove, levelFlags, NO_LEVELS, type BuyLevelName, type ReferenceLevels } from "./level-flags.ts";

export interface EngineSettings {
  /** Calendar days to expiry kept in the pool, inclusive (the widest a trader may filter). */
  minDays: number;
  maxDays: number;
  /** The premium a seller is assumed to get: the bid (default, what a market order fills at) or the mid. */
  premium: "bid" | "mid";
}

const DEFAULT_SETTINGS: EngineSettings = {
  minDays: FILTER_LIMITS.dte.min,
  maxDays: FILTER_LIMITS.dte.max,
  premium: "bid",
};

/** Stored daily ATM IVs needed before an IV rank means anything (about a month of trading). */
export const MIN_IV_HISTORY = 20;
/** The IV-rank window: a year of trading days. */
export const IV_RANK_WINDOW = 252;
/** Days to expiry of the at-the-money IV quoted for the stock (the usual 30-day IV). */
const ATM_TARGET_DAYS = 30;
/** Window of the historical volatility, in daily returns. */
export const HV_WINDOW = 20;

export interface EngineInput {
  chain: OptionChain;
  /** Daily closes, oldest first (at least HV_WINDOW + 1 for a full historical volatility). */
  closes: readonly number[];
  levels: ReferenceLevels;
  /** YYYY-MM-DD of the next earnings report, or null when unknown. */
  earningsDate: string | null;
  /** Stored daily at-the-money implied volatilities before today, oldest first. */
  ivHistory: readonly number[];
  settings?: Partial<EngineSettings> | undefined;
}

/** One priced put and everything the seller checks; fractions where a percentage. */
export interface Candidate {
  symbol: string;
  expiration: string;
  strike: number;
  bid: number;
  ask: number;
  /** "last": the market was closed and the vendor's last trade stands in for the bid (ADR 0030). */
  bidSource?: "quote" | "last" | undefined;
  /** What the seller is assumed to collect per share (bid or mid). */
  premium: number;
  mid: number;
  /** max(0, strike − spot): the part of an in-the-money put's premium that is not income. */
  intrinsicValue: number;
  /** max(0, premium − intrinsic value). */
  timeValue: number;
  /** (ask − bid) / mid. */
  spread: number;
  volume: number;
  openInterest: number;
  daysToExpiry: number;
  years: number;
  /** premium / strike × 30 / days. */
  monthlyRoi: number;
  /** premium / strike × 365 / days. */
  annualizedRoi: number;
  impliedVolatility: number;
  /** Where the IV came from: solved from the mid price, or the vendor's when no volatility fits. */
  ivSource: "mid" | "vendor";
  delta: number;
  theta: number;
  vega: number;
  breakeven: number;
  /** Cash set aside for one contract: 100 × strike. */
  collateral: number;
  /** How far the stock can fall before the seller loses: (spot − breakeven) / spot. */
  cushion: number;
  /** P(stock ends above breakeven) under the lognormal model at the option's IV. */
  probabilityOfProfit: number;
  /** The trader's shortcut: 1 − |delta|, the chance of expiring out of the money. */
  probabilityOfProfitDelta: number;
  /** Risk-neutral chance of ending below the strike, N(−d2): the chance of assignment. */
  probabilityOfAssignment: number;
  earningsBeforeExpiry: boolean;
  /** The lowest buy level the strike is at or below, or null. */
  buyLevel: BuyLevelName | null;
  belowConservativeIv: boolean;
  score: number;
}

export interface Analysis {
  spot: number;
  asOf: Date;
  rate: number;
  dividendYield: number;
  /** HV over the last 20 daily returns (fewer when the history is short; 0 when there is none). */
  historicalVolatility: number;
  /** Daily returns the historical volatility used. */
  hvReturns: number;
  /** ~30-day at-the-money IV, or null when the chain has no usable at-the-money quote. */
  atmImpliedVolatility: number | null;
  /** Where today's ATM IV sits in the stored range, 0–1; null before MIN_IV_HISTORY days are stored. */
  ivRank: number | null;
  /** Share of the stored days with an ATM IV below today's, 0–1; null before MIN_IV_HISTORY days. */
  ivPercentile: number | null;
  /** Stored daily ATM IVs the rank and percentile had (at most IV_RANK_WINDOW). */
  ivHistoryDays: number;
  earningsDate: string | null;
  settings: EngineSettings;
  /** Puts in the chain. */
  putsInChain: number;
  /** Puts in the pool's window with a bid and some volume or open interest. */
  eligible: number;
  /** Options run through the model (IV solve and greeks): the eligible puts plus the ATM pair. */
  optionsPriced: number;
  /**
   * The pool: every eligible put that could be priced and that some trader's filters could let
   * through (selection.ts FILTER_LIMITS), best first by the default filters and the run's levels.
   */
  candidates: Candidate[];
  /** What a reader with the default filters and the run's levels sees: soonest expiry first, best first. */
  selected: Candidate[];
}

/** Where `current` sits between the low and high of the window (history plus today), 0–1. */
export function ivRank(history: readonly number[], current: number | null): number | null {
  if (current === null || !Number.isFinite(current)) return null;
  const window = history.filter((v) => Number.isFinite(v) && v > 0).slice(-IV_RANK_WINDOW);
  if (window.length < MIN_IV_HISTORY) return null;
  const low = Math.min(current, ...window);
  const high = Math.max(current, ...window);
  if (!(high - low > 1e-9)) return null;
  return (current - low) / (high - low);
}

/** Share of the window's days with an IV below `current`, 0–1; null before MIN_IV_HISTORY days. */
function ivPercentile(history: readonly number[], current: number | null): number | null {
  if (current === null || !Number.isFinite(current)) return null;
  const window = history.filter((v) => Number.isFinite(v) && v > 0).slice(-IV_RANK_WINDOW);
  if (window.length < MIN_IV_HISTORY) return null;
  return window.filter((v) => v < current).length / window.length;
}

/** HV20 of the closes; over a shorter window when the history is short, 0 when under 3 closes. */
export function recentHistoricalVolatility(closes: readonly number[]): { value: number; returns: number } {
  const usable = closes.filter((c) => Number.isFinite(c) && c > 0);
  const returns = Math.min(HV_WINDOW, usable.length - 1);
  if (returns < 2) return { value: 0, returns: 0 };
  return { value: historicalVolatility(usable, returns), returns };
}

interface PricingContext {
  spot: number;
  asOf: Date;
  rate: number;
  dividendYield: number;
}

/** IV from the mid price, the vendor's IV when no volatility fits, null when neither is usable. */
function volatilityOf(
  option: OptionQuote,
  years: number,
  p: PricingContext,
): { value: number; source: "mid" | "vendor" } | null {
  const mid = (option.bid + option.ask) / 2;
  if (mid > 0 && years > 0) {
    try {
      const value = impliedVolatility(option.type, mid, {
        spot: p.spot,
        strike: option.strike,
        years,
        rate: p.rate,
        dividendYield: p.dividendYield,
      });
      return { value, source: "mid" };
    } catch {
      // A mid below intrinsic or above the bound: fall back to the vendor's figure.
    }
  }
  const vendor = option.impliedVolatility;
  return Number.isFinite(vendor) && vendor > 0 ? { value: vendor, source: "vendor" } : null;
}

export function analyzeChain(input: EngineInput): Analysis {
  const settings: EngineSettings = { ...DEFAULT_SETTINGS, ...input.settings };
  const { chain, levels } = input;
  const p: PricingContext = {
    spot: chain.spot,
    asOf: chain.asOf,
    rate: chain.rate ?? FALLBACK_RISK_FREE_RATE,
    dividendYield: chain.dividendYield ?? 0,
  };
  const today = nyClock(chain.asOf).dayNumber;
  const hv = recentHistoricalVolatility(input.closes);
  const earningsDay = input.earningsDate ? dayNumberOf(input.earningsDate) : null;

  let putsInChain = 0;
  let eligible = 0;
  let optionsPriced = 0;
  const candidates: Candidate[] = [];
  for (const expiry of chain.expirations) {
    const expirationDay = dayNumberOf(expiry.expiration);
    const days = expirationDay - today;
    const inWindow = days >= settings.minDays && days <= settings.maxDays;
    const years = inWindow ? yearsToExpiry(chain.asOf, expiry.expiration) : 0;
    const earningsBeforeExpiry = earningsDay !== null && earningsDay <= expirationDay;
    for (const option of expiry.options) {
      if (option.type !== "put") continue;
      putsInChain++;
      if (!inWindow || !(option.bid > 0) || !(option.volume > 0 || option.openInterest > 0)) continue;
      eligible++;
      optionsPriced++;
      const iv = volatilityOf(option, years, p);
      if (!iv) continue;
      const g = bsGreeks("put", {
        spot: p.spot,
        strike: option.strike,
        years,
        rate: p.rate,
        dividendYield: p.dividendYield,
        volatility: iv.value,
      });
      const mid = (option.bid + option.ask) / 2;
      const spread = mid > 0 ? (option.ask - option.bid) / mid : Infinity;
      // Outside what any trader may ask for: a penny bid, no real market, too far in the money.
      if (option.bid < FILTER_LIMITS.minBid || spread > FILTER_LIMITS.maxSpread) continue;
      if (Math.abs(g.delta) > FILTER_LIMITS.delta.max) continue;
      const premium = settings.premium === "mid" ? mid : option.bid;
      const intrinsicValue = Math.max(0, option.strike - p.spot);
      const breakeven = putBreakeven(option.strike, premium);
      const { buyLevel, belowConservativeIv } = levelFlags(option.strike, levels);
      const probabilityOfProfit = probabilityAbove({
        spot: p.spot,
        level: breakeven,
        years,
        rate: p.rate,
        dividendYield: p.dividendYield,
        volatility: iv.value,
      });
      const candidate: Candidate = {
        symbol: option.symbol,
        expiration: expiry.expiration,
        strike: option.strike,
        bid: option.bid,
        ask: option.ask,
        bidSource: option.bidSource ?? "quote",
        premium,
        mid,
        intrinsicValue,
        timeValue: Math.max(0, premium - intrinsicValue),
        spread,
        volume: Math.max(0, Math.floor(option.volume)),
        openInterest: Math.max(0, Math.floor(option.openInterest)),
        daysToExpiry: days,
        years,
        monthlyRoi: ((premium / option.strike) * 30) / days,
        annualizedRoi: ((premium / option.strike) * 365) / days,
        impliedVolatility: iv.value,
        ivSource: iv.source,
        delta: g.delta,
        theta: g.theta,
        vega: g.vega,
        breakeven,
        collateral: 100 * option.strike,
        cushion: (p.spot - breakeven) / p.spot,
        probabilityOfProfit,
        probabilityOfProfitDelta: Math.min(1, Math.max(0, 1 + g.delta)),
        probabilityOfAssignment: probabilityBelow({
          spot: p.spot,
          level: option.strike,
          years,
          rate: p.rate,
          dividendYield: p.dividendYield,
          volatility: iv.value,
        }),
        earningsBeforeExpiry,
        buyLevel,
        belowConservativeIv,
        score: 0,
      };
      candidates.push(candidate);
    }
  }

  const atm = atTheMoneyVolatility(chain, today, p);
  optionsPriced += atm.priced;
  // The default reader's view, against the run's levels: the order the pool is kept in and the
  // set announced and broadcast. Each reader's own view is computed when they read (selection.ts).
  const views = candidates.map((c) => poolView(c, p));
  const byCandidate = new Map(views.map((v, i) => [v, candidates[i]!]));
  const defaults = selectFor(views, levels, DEFAULT_FILTERS);
  for (const [i, view] of views.entries()) candidates[i]!.score = figuresOf(view, levels, DEFAULT_FILTERS).score;
  candidates.sort(byScore);
  const history = input.ivHistory.filter((v) => Number.isFinite(v) && v > 0).slice(-IV_RANK_WINDOW);
  return {
    spot: p.spot,
    asOf: p.asOf,
    rate: p.rate,
    dividendYield: p.dividendYield,
    historicalVolatility: hv.value,
    hvReturns: hv.returns,
    atmImpliedVolatility: atm.value,
    ivRank: ivRank(input.ivHistory, atm.value),
    ivPercentile: ivPercentile(input.ivHistory, atm.value),
    ivHistoryDays: history.length,
    earningsDate: input.earningsDate,
    settings,
    putsInChain,
    eligible,
    optionsPriced,
    candidates,
    selected: defaults.selected.map((s) => byCandidate.get(s.option)!),
  };
}

/** A candidate as the selection reads a stored put. */
function poolView(c: Candidate, p: { spot: number; rate: number }): PoolOption {
  return {
    strike_price: c.strike,
    expiration_date: c.expiration,
    current_stock_price: p.spot,
    bid: c.bid,
    ask: c.ask,
    delta: c.delta,
    days_to_expiry: c.daysToExpiry,
    open_interest: c.openInterest,
    earnings_before_expiry: c.earningsBeforeExpiry,
    probability_of_profit: c.probabilityOfProfit,
    rate: p.rate,
  };
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || b.strike - a.strike || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0);
}

/**
 * The stock's ~30-day at-the-money IV: in the expiry nearest 30 days out (at least a week away
 * when there is one), the put and call at the strike nearest spot, averaged.
 */
function atTheMoneyVolatility(
  chain: OptionChain,
  today: number,
  p: PricingContext,
): { value: number | null; priced: number } {
  const dated = chain.expirations
    .map((e) => ({ e, days: dayNumberOf(e.expiration) - today }))
    .filter((x) => x.days >= 1 && x.e.options.length > 0);
  if (dated.length === 0) return { value: null, priced: 0 };
  const pool = dated.some((x) => x.days >= 7) ? dated.filter((x) => x.days >= 7) : dated;
  const nearest = pool.reduce((best, x) =>
    Math.abs(x.days - ATM_TARGET_DAYS) < Math.abs(best.days - ATM_TARGET_DAYS) ? x : best,
  );
  const strike = nearest.e.options.reduce((best, o) =>
    Math.abs(o.strike - p.spot) < Math.abs(best.strike - p.spot) ? o : best,
  ).strike;
  const years = yearsToExpiry(chain.asOf, nearest.e.expiration);
  const ivs: number[] = [];
  let priced = 0;
  for (const option of nearest.e.options) {
    if (option.strike !== strike) continue;
    priced++;
    const iv = volatilityOf(option, years, p);
    if (iv) ivs.push(iv.value);
  }
  return { value: ivs.length ? ivs.reduce((a, b) => a + b, 0) / ivs.length : null, priced };
}
