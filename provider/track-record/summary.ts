/**
 * The track record's tables from scored picks, pure: the predicted chance of profit by bucket
 * against the share that was profitable (calibration), and the same figures by ticker and by month.
 */
import type { Outcome } from "./outcome.ts";

/** One scored pick, as the summary needs it. */
export interface ScoredPick {
  ticker: string;
  /** YYYY-MM-DD the put was recommended (New York). */
  shownDay: string;
  expiration: string;
  strike: number;
  premium: number;
  /** The engine's chance of profit when it was shown, 0–1. */
  probabilityOfProfit: number;
  outcome: Outcome;
  pnlPerShare: number;
  source: "live" | "backtest";
  /** The T-bill rate the engine priced with, continuous, a year. */
  rate: number;
}

/**
 * Returns on the cash set aside, weighted by collateral-days and put a year
 * (docs/decisions/0097-track-record-returns-on-collateral-days.md): each put ties up strike × 100
 * from the day it was shown to its expiry, so a figure is Σ dollars ÷ Σ (strike × days) × 365.
 */
export interface OnCollateral {
  count: number;
  /** Σ strike × 100 × calendar days from shown to expiry. */
  collateralDays: number;
  /** Premium at the bid (or the mid where shown so), a year on the collateral-days. */
  promised: number;
  /** P&L, gross of commission, assigned shares at the expiry close, a year on the collateral-days. */
  realised: number;
  /** What T-bills paid on the same cash over the same days (each put's own rate, continuous), a year. */
  tbills: number;
}

export interface Group {
  count: number;
  expiredWorthless: number;
  assigned: number;
  profitable: number;
  /** Mean predicted chance of profit. */
  meanPredicted: number;
  /** Share of the picks that ended profitable. */
  observedProfitRate: number;
  /** Mean of premium / strike (the return if every put expired worthless). */
  meanPromisedReturn: number;
  /** Mean of P&L / strike, gross of commission. */
  meanRealisedReturn: number;
  /** Sum of P&L for one contract (100 shares) of each pick, gross of commission. */
  pnlPerContract: number;
}

export interface CalibrationBucket extends Group {
  /** The bucket's predicted range [from, to); the last bucket includes 1. */
  from: number;
  to: number;
  /** 95% Wilson interval of the observed rate; null when the bucket is empty. */
  low: number | null;
  high: number | null;
}

export interface Summary {
  onCollateral: OnCollateral;
  totals: Group & { firstShown: string | null; lastExpiry: string | null; live: number; backtest: number };
  calibration: CalibrationBucket[];
  byTicker: (Group & { ticker: string })[];
  /** By the month of expiry (when the outcome became known), oldest first. */
  byMonth: (Group & { month: string })[];
}

/** Ten buckets of 10 points; the engine's picks gather between 50% and 95%. */
const BUCKET_WIDTH = 0.1;

export function bucketOf(probability: number): number {
  return Math.min(9, Math.max(0, Math.floor(probability / BUCKET_WIDTH + 1e-9)));
}

/** 95% Wilson score interval of `successes` out of `n` (sound near 0 and 1 and for small n). */
export function wilsonInterval(successes: number, n: number, z = 1.959964): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

function group(picks: readonly ScoredPick[]): Group {
  const n = picks.length;
  let expiredWorthless = 0;
  let profitable = 0;
  let predicted = 0;
  let promised = 0;
  let realised = 0;
  let pnl = 0;
  for (const p of picks) {
    if (p.outcome === "expired_worthless") expiredWorthless++;
    if (p.pnlPerShare > 0) profitable++;
    predicted += p.probabilityOfProfit;
    promised += p.premium / p.strike;
    realised += p.pnlPerShare / p.strike;
    pnl += p.pnlPerShare * 100;
  }
  const mean = (x: number) => (n ? x / n : 0);
  return {
    count: n,
    expiredWorthless,
    assigned: n - expiredWorthless,
    profitable,
    meanPredicted: mean(predicted),
    observedProfitRate: mean(profitable),
    meanPromisedReturn: mean(promised),
    meanRealisedReturn: mean(realised),
    pnlPerContract: Math.round(pnl * 100) / 100,
  };
}

function groupBy<K extends string>(picks: readonly ScoredPick[], key: (p: ScoredPick) => K): Map<K, ScoredPick[]> {
  const map = new Map<K, ScoredPick[]>();
  for (const p of picks) {
    const k = key(p);
    const list = map.get(k);
    if (list) list.push(p);
    else map.set(k, [p]);
  }
  return map;
}

const DAY_COUNT = 365;

/** Calendar days a put holds its cash: from the day shown to its expiry, at least one. */
export function daysHeld(p: Pick<ScoredPick, "shownDay" | "expiration">): number {
  const ms = Date.parse(`${p.expiration}T00:00:00Z`) - Date.parse(`${p.shownDay}T00:00:00Z`);
  return Math.max(1, Math.round(ms / 86_400_000));
}

export function onCollateral(picks: readonly ScoredPick[]): OnCollateral {
  let weight = 0;
  let premium = 0;
  let pnl = 0;
  let tbills = 0;
  for (const p of picks) {
    const days = daysHeld(p);
    weight += p.strike * days;
    premium += p.premium;
    pnl += p.pnlPerShare;
    // The strike's cash in T-bills for the same days, compounded as the engine prices (continuous).
    tbills += p.strike * Math.expm1((p.rate * days) / DAY_COUNT);
  }
  const yearly = (dollars: number) => (weight > 0 ? (dollars / weight) * DAY_COUNT : 0);
  return {
    count: picks.length,
    collateralDays: Math.round(weight * 100),
    promised: yearly(premium),
    realised: yearly(pnl),
    tbills: yearly(tbills),
  };
}

export function summarize(picks: readonly ScoredPick[]): Summary {
  const buckets = groupBy(picks, (p) => String(bucketOf(p.probabilityOfProfit)));
  const calibration: CalibrationBucket[] = Array.from({ length: 10 }, (_, i) => {
    const g = group(buckets.get(String(i)) ?? []);
    const interval = g.count ? wilsonInterval(g.profitable, g.count) : null;
    return {
      from: Math.round(i * BUCKET_WIDTH * 100) / 100,
      to: Math.round((i + 1) * BUCKET_WIDTH * 100) / 100,
      ...g,
      low: interval?.low ?? null,
      high: interval?.high ?? null,
    };
  });
  let firstShown: string | null = null;
  let lastExpiry: string | null = null;
  let live = 0;
  for (const p of picks) {
    if (firstShown === null || p.shownDay < firstShown) firstShown = p.shownDay;
    if (lastExpiry === null || p.expiration > lastExpiry) lastExpiry = p.expiration;
    if (p.source === "live") live++;
  }
  return {
    onCollateral: onCollateral(picks),
    totals: { ...group(picks), firstShown, lastExpiry, live, backtest: picks.length - live },
    calibration,
    byTicker: [...groupBy(picks, (p) => p.ticker)]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([ticker, list]) => ({ ticker, ...group(list) })),
    byMonth: [...groupBy(picks, (p) => p.expiration.slice(0, 7))]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([month, list]) => ({ month, ...group(list) })),
  };
}
