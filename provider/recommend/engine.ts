/**
 * The sell-put engine, pure: from an option chain, the stock's recent closes, the reference
 * intrinsic values and buy levels, and the stored at-the-money IV history, it prices every
 * eligible put, computes what a cash-secured put seller checks, ranks them and picks the best few
 * per expiry. No I/O here, so the benchmark and the tests drive it directly.
 */
import { bsGreeks } from "../options/black-scholes.ts";
import { historicalVolatility } from "../options/historical-volatility.ts";
import { impliedVolatility } from "../options/implied-volatility.ts";
import { probabilityAbove, putBreakeven } from "../options/probability.ts";
import { dayNumberOf, nyClock, yearsToExpiry } from "../market/calendar.ts";
import { RISK_FREE_RATE } from "../market/option-model.ts";
import type { OptionChain, OptionQuote } from "../market/port.ts";

export type BuyLevelName = "one" | "two" | "three" | "four";

/** The intrinsic values and buy levels the ranking favours (a watchlist or UIP row); 0 means not set. */
export interface ReferenceLevels {
  base_iv: number;
  conservative_iv: number;
  average_iv: number;
  buy_level_one: number;
  buy_level_two: number;
  buy_level_three: number;
  buy_level_four: number;
}

export const NO_LEVELS: ReferenceLevels = {
  base_iv: 0,
  conservative_iv: 0,
  average_iv: 0,
  buy_level_one: 0,
  buy_level_two: 0,
  buy_level_three: 0,
  buy_level_four: 0,
};

export interface EngineSettings {
  /** Calendar days to expiry kept, inclusive. */
  minDays: number;
  maxDays: number;
  /** Recommendations kept per expiry. */
  perExpiry: number;
  /** The premium a seller is assumed to get: the bid (default, what a market order fills at) or the mid. */
  premium: "bid" | "mid";
}

export const DEFAULT_SETTINGS: EngineSettings = { minDays: 7, maxDays: 60, perExpiry: 3, premium: "bid" };

/** Stored daily ATM IVs needed before an IV rank means anything (about a month of trading). */
export const MIN_IV_HISTORY = 20;
/** The IV-rank window: a year of trading days. */
export const IV_RANK_WINDOW = 252;
/** Days to expiry of the at-the-money IV quoted for the stock (the usual 30-day IV). */
const ATM_TARGET_DAYS = 30;
/** Window of the historical volatility, in daily returns. */
export const HV_WINDOW = 20;

/** Ranking weights: why a put ranks where it does, in one place. */
export const RANKING = {
  /**
   * Strike at or below one of the buy levels: the seller would be glad to own the stock there.
   * Strong enough that such a strike beats a nearer-the-money one paying about twice as much.
   */
  atOrBelowBuyLevel: 2.5,
  /** Strike below the conservative intrinsic value: assignment buys below a cautious fair value. */
  belowConservativeIv: 1.5,
  /** Strike above spot: likely assigned at more than the stock is worth now. */
  inTheMoney: 0.5,
  /** An earnings report before expiry: a gap can jump straight through the strike. */
  earningsBeforeExpiry: 0.8,
} as const;

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
  /** What the seller is assumed to collect per share (bid or mid). */
  premium: number;
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
  earningsDate: string | null;
  settings: EngineSettings;
  /** Puts in the chain. */
  putsInChain: number;
  /** Puts that passed the filters (7–60 days, a bid, volume or open interest). */
  eligible: number;
  /** Options run through the model (IV solve and greeks): the eligible puts plus the ATM pair. */
  optionsPriced: number;
  /** Every eligible put that could be priced, best first. */
  candidates: Candidate[];
  /** The best few per expiry: soonest expiry first, best first within it. */
  selected: Candidate[];
}

const LEVEL_NAMES: [keyof ReferenceLevels, BuyLevelName][] = [
  ["buy_level_one", "one"],
  ["buy_level_two", "two"],
  ["buy_level_three", "three"],
  ["buy_level_four", "four"],
];

/** The lowest buy level the strike sits at or below (levels of 0 are not set), or null. */
export function buyLevelAtOrAbove(strike: number, levels: ReferenceLevels): BuyLevelName | null {
  let best: { name: BuyLevelName; value: number } | null = null;
  for (const [column, name] of LEVEL_NAMES) {
    const value = levels[column];
    if (value > 0 && strike <= value && (!best || value < best.value)) best = { name, value };
  }
  return best?.name ?? null;
}

/**
 * How a strike sits against a set of levels: the lowest buy level it is at or below, and whether it
 * is below the conservative intrinsic value. Ranking uses it, and so does every reader of a stored
 * row (store.ts), each against the levels that reader may see.
 */
export function levelFlags(
  strike: number,
  levels: ReferenceLevels,
): { buyLevel: BuyLevelName | null; belowConservativeIv: boolean } {
  return {
    buyLevel: buyLevelAtOrAbove(strike, levels),
    belowConservativeIv: levels.conservative_iv > 0 && strike < levels.conservative_iv,
  };
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
    rate: chain.rate ?? RISK_FREE_RATE,
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
      const premium = settings.premium === "mid" ? (option.bid + option.ask) / 2 : option.bid;
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
        premium,
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
        earningsBeforeExpiry,
        buyLevel,
        belowConservativeIv,
        score: 0,
      };
      candidate.score = scoreOf(candidate, p.spot);
      candidates.push(candidate);
    }
  }

  const atm = atTheMoneyVolatility(chain, today, p);
  optionsPriced += atm.priced;
  candidates.sort(byScore);
  return {
    spot: p.spot,
    asOf: p.asOf,
    rate: p.rate,
    dividendYield: p.dividendYield,
    historicalVolatility: hv.value,
    hvReturns: hv.returns,
    atmImpliedVolatility: atm.value,
    ivRank: ivRank(input.ivHistory, atm.value),
    earningsDate: input.earningsDate,
    settings,
    putsInChain,
    eligible,
    optionsPriced,
    candidates,
    selected: bestPerExpiry(candidates, settings.perExpiry),
  };
}

/**
 * How attractive a put is to a cash-secured put seller. The base is the time value earned per
 * month on the collateral (so a deep in-the-money put's intrinsic value does not pass for income)
 * times the chance of keeping it; then the seller's own numbers: at or below a buy level and below
 * the conservative intrinsic value count for it; in the money, an earnings report before expiry
 * and a wide spread count against it.
 */
export function scoreOf(c: Candidate, spot: number): number {
  const intrinsic = Math.max(0, c.strike - spot);
  const timeValue = Math.max(0, c.premium - intrinsic);
  let score = ((timeValue / c.strike) * 30 * c.probabilityOfProfit) / c.daysToExpiry;
  if (c.buyLevel) score *= RANKING.atOrBelowBuyLevel;
  if (c.belowConservativeIv) score *= RANKING.belowConservativeIv;
  if (c.strike > spot) score *= RANKING.inTheMoney;
  if (c.earningsBeforeExpiry) score *= RANKING.earningsBeforeExpiry;
  const mid = (c.bid + c.ask) / 2;
  const spread = mid > 0 ? (c.ask - c.bid) / mid : 1;
  return score / (1 + spread);
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || b.strike - a.strike || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0);
}

/** The best `perExpiry` of each expiry (candidates sorted best first), soonest expiry first. */
function bestPerExpiry(sorted: readonly Candidate[], perExpiry: number): Candidate[] {
  const byExpiry = new Map<string, Candidate[]>();
  for (const c of sorted) {
    const list = byExpiry.get(c.expiration) ?? [];
    if (list.length < perExpiry && c.score > 0) list.push(c);
    byExpiry.set(c.expiration, list);
  }
  return [...byExpiry.keys()].sort().flatMap((expiration) => byExpiry.get(expiration)!);
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
