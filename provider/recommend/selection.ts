/**
 * Which stored puts one trader sees, and in what order (ADR 0022). Generation prices and stores one
 * pool of puts per ticker; this runs for each reader, on the pool, with that reader's own levels
 * (their watchlist row, else the UIP row, else none) and their own filters. Pure, so the store, the
 * bench and the tests drive it alike, and nothing of another user's can reach the result.
 */
import { levelFlags, type ReferenceLevels } from "./level-flags.ts";

/** A trader's filters (fractions where a share; commission in dollars per contract). */
export interface TraderFilterValues {
  /** Only strikes at or below the trader's conservative intrinsic value (when they set one). */
  at_or_below_conservative: boolean;
  delta_min: number;
  delta_max: number;
  dte_min: number;
  dte_max: number;
  min_bid: number;
  min_open_interest: number;
  /** (ask − bid) / mid at most this. */
  max_spread: number;
  /** Leave out expiries on or after the next earnings report (when off, they are flagged and rank lower). */
  skip_earnings: boolean;
  /** Dollars per contract, taken off every net figure. */
  commission: number;
}

export const DEFAULT_FILTERS: TraderFilterValues = {
  at_or_below_conservative: true,
  delta_min: 0.1,
  delta_max: 0.35,
  dte_min: 7,
  dte_max: 60,
  min_bid: 0.1,
  min_open_interest: 100,
  max_spread: 0.1,
  skip_earnings: true,
  commission: 0.65,
};

/**
 * The widest filters a trader may set, and so what generation keeps in the pool: a put outside
 * these could never be shown to anyone (a bid under 5 cents is a penny option, a spread over half
 * the mid has no price to speak of).
 */
export const FILTER_LIMITS = {
  delta: { min: 0, max: 0.6 },
  dte: { min: 1, max: 90 },
  minBid: 0.05,
  maxSpread: 0.5,
  commission: { min: 0, max: 10 },
} as const;

/** Shown per expiry, best first. */
export const PER_EXPIRY = 3;

/** How the trader's levels and an earnings report weigh in the score (ADR 0022 has worked numbers). */
export const SCORE = {
  /** At or below one of the trader's buy levels: wins over a strike above it paying up to 25 % more. */
  atOrBelowBuyLevel: 1.25,
  /** At or below the conservative value (matters only with that filter off). */
  atOrBelowConservative: 1.1,
  /** An expiry that spans the next earnings report: a gap can jump through the strike. */
  earnings: 0.5,
} as const;

const SHARES = 100;

/** What the selection reads of a stored put; a stored row (the contract's shape) has all of it. */
export interface PoolOption {
  strike_price: number;
  expiration_date: string;
  current_stock_price: number;
  bid: number;
  ask: number;
  delta: number;
  days_to_expiry: number;
  open_interest: number;
  earnings_before_expiry: boolean;
  probability_of_profit: number;
  /** The T-bill (risk-free) rate of the run, annual; null in rows stored before it was kept. */
  rate: number | null;
}

/** One put's figures for one reader. */
export interface ReaderFigures {
  mid: number;
  /** Strike above spot: the part of the premium that is not income. */
  intrinsic_value: number;
  /** Bid minus intrinsic value: what an in-the-money put really pays. */
  time_value: number;
  /** (ask − bid) / mid. */
  spread: number;
  commission: number;
  /** Time value at the bid less commission, over the collateral (strike), for the days held. */
  net_return: number;
  net_monthly_return: number;
  net_annualized_return: number;
  /** What T-bills pay on the same collateral for the same days (simple interest at the run's rate). */
  tbill_return: number;
  /** net_return − tbill_return. */
  excess_return: number;
  buy_level: "one" | "two" | "three" | "four" | null;
  below_conservative_iv: boolean;
  at_or_below_conservative: boolean;
  score: number;
}

export function figuresOf(o: PoolOption, levels: ReferenceLevels | null, filters: TraderFilterValues): ReaderFigures {
  const mid = (o.bid + o.ask) / 2;
  const intrinsic = Math.max(0, o.strike_price - o.current_stock_price);
  const timeValue = Math.max(0, o.bid - intrinsic);
  const net = timeValue - filters.commission / SHARES;
  const days = Math.max(1, o.days_to_expiry);
  const netReturn = net / o.strike_price;
  const tbill = ((o.rate ?? 0) * days) / 365;
  const spread = mid > 0 ? (o.ask - o.bid) / mid : 1;
  const flags = levels ? levelFlags(o.strike_price, levels) : { buyLevel: null, belowConservativeIv: false };
  const atOrBelowConservative =
    levels !== null && levels.conservative_iv > 0 && o.strike_price <= levels.conservative_iv;
  let score = ((Math.max(0, netReturn) * 30) / days) * o.probability_of_profit;
  score /= 1 + spread;
  if (o.earnings_before_expiry) score *= SCORE.earnings;
  if (flags.buyLevel) score *= SCORE.atOrBelowBuyLevel;
  if (atOrBelowConservative) score *= SCORE.atOrBelowConservative;
  return {
    mid,
    intrinsic_value: intrinsic,
    time_value: timeValue,
    spread,
    commission: filters.commission,
    net_return: netReturn,
    net_monthly_return: (netReturn * 30) / days,
    net_annualized_return: (netReturn * 365) / days,
    tbill_return: tbill,
    excess_return: netReturn - tbill,
    buy_level: flags.buyLevel,
    below_conservative_iv: flags.belowConservativeIv,
    at_or_below_conservative: atOrBelowConservative,
    score,
  };
}

/** Whether a put passes the filters other than the conservative value. */
function passesMarketFilters(o: PoolOption, f: TraderFilterValues): boolean {
  const absDelta = Math.abs(o.delta);
  const mid = (o.bid + o.ask) / 2;
  const spread = mid > 0 ? (o.ask - o.bid) / mid : Infinity;
  return (
    absDelta >= f.delta_min - 1e-12 &&
    absDelta <= f.delta_max + 1e-12 &&
    o.days_to_expiry >= f.dte_min &&
    o.days_to_expiry <= f.dte_max &&
    o.bid >= f.min_bid - 1e-9 &&
    o.open_interest >= f.min_open_interest &&
    spread <= f.max_spread + 1e-12 &&
    !(f.skip_earnings && o.earnings_before_expiry)
  );
}

export interface Selected<T> {
  option: T;
  figures: ReaderFigures;
  /** 1 = the reader's best pick of the stock. */
  rank: number;
}

export interface Selection<T> {
  /** The best PER_EXPIRY of each expiry, soonest expiry first, best first within it. */
  selected: Selected<T>[];
  /** The rest the filters let through, beyond PER_EXPIRY an expiry, in the same order; rank 0. */
  more: Selected<T>[];
  /**
   * When the conservative-value filter left nothing that the other filters let through: the strike
   * nearest above the conservative value, so the trader sees what they would have to accept.
   */
  nearest: Selected<T> | null;
  /** Whether the conservative value filtered (on, and the reader has one). */
  conservativeApplied: boolean;
}

const byScore = <T extends PoolOption>(a: Selected<T>, b: Selected<T>) =>
  b.figures.score - a.figures.score || b.option.strike_price - a.option.strike_price;

export function selectFor<T extends PoolOption>(
  pool: readonly T[],
  levels: ReferenceLevels | null,
  filters: TraderFilterValues,
): Selection<T> {
  const conservativeApplied = filters.at_or_below_conservative && levels !== null && levels.conservative_iv > 0;
  const passing: Selected<T>[] = [];
  const aboveConservative: Selected<T>[] = [];
  for (const option of pool) {
    if (!passesMarketFilters(option, filters)) continue;
    const entry = { option, figures: figuresOf(option, levels, filters), rank: 0 };
    if (conservativeApplied && !entry.figures.at_or_below_conservative) aboveConservative.push(entry);
    else passing.push(entry);
  }
  passing.sort(byScore);
  const perExpiry = new Map<string, number>();
  const more: Selected<T>[] = [];
  const kept = passing.filter((entry) => {
    const n = perExpiry.get(entry.option.expiration_date) ?? 0;
    perExpiry.set(entry.option.expiration_date, n + 1);
    if (n >= PER_EXPIRY) more.push(entry);
    return n < PER_EXPIRY;
  });
  more.sort((a, b) =>
    a.option.expiration_date < b.option.expiration_date
      ? -1
      : a.option.expiration_date > b.option.expiration_date
        ? 1
        : 0,
  );
  kept.forEach((entry, i) => (entry.rank = i + 1));
  const selected = kept.sort(
    (a, b) =>
      (a.option.expiration_date < b.option.expiration_date
        ? -1
        : a.option.expiration_date > b.option.expiration_date
          ? 1
          : 0) || a.rank - b.rank,
  );
  let nearest: Selected<T> | null = null;
  if (selected.length === 0 && aboveConservative.length > 0) {
    // Nearest above the conservative value: the lowest strike; the better score among equals.
    nearest = aboveConservative.reduce((best, e) =>
      e.option.strike_price < best.option.strike_price ||
      (e.option.strike_price === best.option.strike_price && e.figures.score > best.figures.score)
        ? e
        : best,
    );
    nearest.rank = 1;
  }
  return { selected, more, nearest, conservativeApplied };
}
