/**
 * One ticker's simulated price path, a pure function of (seed, ticker, time).
 *
 * Daily log closes are the reference price plus two mean-reverting layers: a slow one (half-life
 * about a year) that gives months-long trends and a fast one (about a month) that gives the
 * day-to-day wiggle. Together their daily moves have the ticker's volatility, and the path never
 * wanders far from the reference price, however long the demo runs. Earnings days move 2.5× more.
 * Exchange holidays keep their weekday number but do not move the price and have no bar.
 * Within a session the price follows a Brownian bridge from the previous close to the close,
 * linear between 78 five-minute knots, so it is continuous and the day's high and low are exact.
 */
import type { DailyBar } from "#contract/entities.ts";
import { dayNumberOf, dayNumberOfTradingIndex, isoDateOf, isTradingDay, tradingIndexOf } from "./calendar.ts";
import type { EarningsSchedule } from "./earnings.ts";
import { hashString, Random, randomFor } from "./random.ts";

/** The simulated history starts here; nothing before it exists. */
export const EPOCH_DAY = tradingIndexOf(dayNumberOf("2000-01-03"));
const KNOTS = 78;
export const EARNINGS_MOVE_FACTOR = 2.5;

const FAST_REVERSION = 0.5 ** (1 / 20);
const SLOW_REVERSION = 0.5 ** (1 / 250);
/** Spread of the slow layer as a share of annual volatility. */
const SLOW_SPREAD = 0.35;

const round2 = (x: number) => Math.round(x * 100) / 100;

export interface PricePathOptions {
  seed: string | number;
  ticker: string;
  price: number;
  volatility: number;
  earnings: EarningsSchedule;
}

export class PricePath {
  readonly referenceLog: number;
  readonly dailyVol: number;
  private readonly key: string;
  private readonly earnings: EarningsSchedule;
  private readonly baseVolume: number;
  private readonly slowStep: number;
  private readonly fastStep: number;
  /** Log closes from EPOCH_DAY on, grown on demand; the generator state is kept to continue. */
  private closes = new Float64Array(0);
  private length = 0;
  private slow = 0;
  private fast = 0;
  private readonly random: Random;
  private readonly bars = new Map<number, DailyBar>();
  private knotCache: { day: number; knots: Float64Array; volumeNoise: number } | undefined;

  constructor(o: PricePathOptions) {
    this.key = `${o.seed}\u0000${o.ticker}`;
    this.referenceLog = Math.log(o.price);
    this.dailyVol = o.volatility / Math.sqrt(252);
    this.earnings = o.earnings;
    this.random = new Random(hashString(`${this.key}\u0000path`));
    this.baseVolume = 3e6 + (hashString(`${this.key}\u0000volume`) / 2 ** 32) * 4e7;
    const slowSpread = SLOW_SPREAD * o.volatility;
    this.slowStep = slowSpread * Math.sqrt(1 - SLOW_REVERSION ** 2);
    // The fast layer takes the rest of the daily variance so the two add up to the ticker's volatility.
    this.fastStep = Math.sqrt(Math.max(this.dailyVol ** 2 - this.slowStep ** 2, 0.25 * this.dailyVol ** 2));
    this.slow = slowSpread * this.random.normal();
    this.fast = (this.fastStep / Math.sqrt(1 - FAST_REVERSION ** 2)) * this.random.normal();
  }

  /** Log close of a trading day (days before the epoch read as the epoch). */
  logClose(day: number): number {
    const i = Math.max(0, day - EPOCH_DAY);
    if (i >= this.length) this.grow(i + 1);
    return this.closes[i]!;
  }

  private grow(needed: number): void {
    if (needed > this.closes.length) {
      const next = new Float64Array(Math.max(needed + 260, this.closes.length * 2));
      next.set(this.closes.subarray(0, this.length));
      this.closes = next;
    }
    for (let i = this.length; i < needed; i++) {
      // An exchange holiday keeps a weekday's number but nothing trades: its close is the day
      // before's, so the next session opens from there and no bar or return exists for it.
      if (i > 0 && !isTradingDay(dayNumberOfTradingIndex(EPOCH_DAY + i))) {
        this.closes[i] = this.closes[i - 1]!;
        continue;
      }
      if (i > 0) {
        const shock = this.earnings.isEarningsDay(dayNumberOfTradingIndex(EPOCH_DAY + i)) ? EARNINGS_MOVE_FACTOR : 1;
        this.slow = SLOW_REVERSION * this.slow + this.slowStep * this.random.normal();
        this.fast = FAST_REVERSION * this.fast + this.fastStep * shock * this.random.normal();
      }
      this.closes[i] = this.referenceLog + this.slow + this.fast;
    }
    this.length = needed;
  }

  /** The session's log-price knots, from the previous close (knot 0) to the close (knot 78). */
  private intraday(day: number): { knots: Float64Array; volumeNoise: number } {
    if (this.knotCache?.day === day) return this.knotCache;
    const random = randomFor(this.key, "session", day);
    const from = this.logClose(day - 1);
    const to = this.logClose(day);
    const walk = new Float64Array(KNOTS + 1);
    const step = (0.8 * this.dailyVol) / Math.sqrt(KNOTS);
    for (let k = 1; k <= KNOTS; k++) walk[k] = walk[k - 1]! + step * random.normal();
    const end = walk[KNOTS]!;
    const knots = new Float64Array(KNOTS + 1);
    for (let k = 0; k <= KNOTS; k++) {
      const t = k / KNOTS;
      knots[k] = from + t * (to - from) + walk[k]! - t * end;
    }
    const result = { day, knots, volumeNoise: random.normal() };
    // Only the latest session is asked for repeatedly (quotes); older days go through the bar cache.
    this.knotCache = result;
    return result;
  }

  /** Log price `fraction` of the way through a session (0 = open, 1 = close). */
  logPriceAt(day: number, fraction: number): number {
    if (fraction >= 1) return this.logClose(day);
    const { knots } = this.intraday(day);
    const position = Math.max(0, fraction) * KNOTS;
    const k = Math.floor(position);
    const t = position - k;
    return knots[k]! + t * (knots[k + 1]! - knots[k]!);
  }

  /** The daily bar of a session, partial while `fraction` < 1. */
  bar(day: number, fraction = 1): DailyBar {
    const complete = fraction >= 1;
    if (complete) {
      const cached = this.bars.get(day);
      if (cached) return cached;
    }
    const { knots, volumeNoise } = this.intraday(day);
    const now = this.logPriceAt(day, fraction);
    let high = now;
    let low = now;
    const last = complete ? KNOTS : Math.floor(Math.max(0, fraction) * KNOTS);
    for (let k = 0; k <= last; k++) {
      high = Math.max(high, knots[k]!);
      low = Math.min(low, knots[k]!);
    }
    const move = Math.abs(this.logClose(day) - this.logClose(day - 1)) / this.dailyVol;
    const earnings = this.earnings.isEarningsDay(dayNumberOfTradingIndex(day)) ? 2.5 : 1;
    const fullVolume = this.baseVolume * Math.exp(0.3 * volumeNoise - 0.045) * (1 + 0.3 * move) * earnings;
    const bar: DailyBar = {
      time: isoDateOf(dayNumberOfTradingIndex(day)),
      open: round2(Math.exp(knots[0]!)),
      high: round2(Math.exp(high)),
      low: round2(Math.exp(low)),
      close: round2(Math.exp(now)),
      volume: Math.floor(fullVolume * Math.min(1, Math.max(0, fraction))),
    };
    if (complete) this.bars.set(day, bar);
    return bar;
  }
}
