/**
 * How the simulated market prices options: a volatility surface (level, term structure, earnings
 * bump, put skew), Black-Scholes-Merton for the fair value, and a quoted market around it.
 */
import { bsPrice, type OptionType } from "#provider/options/black-scholes.ts";
import { isoDateOf, previousTradingDay, thirdFriday, weekdayOf } from "./calendar.ts";

const HOUR_IN_YEARS = 1 / (365 * 24);

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const floorCents = (x: number) => Math.floor(x * 100 + 1e-7) / 100;
const ceilCents = (x: number) => Math.ceil(x * 100 - 1e-7) / 100;
const roundCents = (x: number) => Math.round(x * 100) / 100;

export interface SurfaceInputs {
  /** The ticker's long-run annual volatility. */
  volatility: number;
  /** Log of spot over the reference price: IV rises when the stock is down (leverage effect). */
  deviation: number;
  years: number;
  strike: number;
  forward: number;
  /** Standard deviation of the log move on earnings day, when a report falls before expiry. */
  earningsMove: number;
}

export interface SurfacePoint {
  impliedVolatility: number;
  /** log(K/F) in at-the-money standard deviations, for liquidity. */
  moneyness: number;
}

export function surfaceVolatility(s: SurfaceInputs): SurfacePoint {
  const level = s.volatility * clamp(Math.exp(-0.6 * s.deviation), 0.75, 1.5);
  const term = 0.95 + 0.1 * Math.min(1, s.years / 0.5);
  const T = Math.max(s.years, HOUR_IN_YEARS);
  // An earnings report adds its variance once, so short expiries that span it get much higher IV.
  const atm = Math.sqrt(((level * term) ** 2 * T + s.earningsMove ** 2) / T);
  const moneyness = Math.log(s.strike / s.forward) / (atm * Math.sqrt(T));
  // Skewed smile, flat beyond the clamp so put prices still rise with strike.
  const x = clamp(moneyness, -4.5, 4);
  return { impliedVolatility: atm * (1 - 0.06 * x + 0.012 * x * x), moneyness };
}

export interface MarketQuote {
  model: number;
  bid: number;
  ask: number;
  last: number;
}

/**
 * Bid and ask in cents around the model price, wider away from the money; no bid under two cents,
 * and none under the intrinsic value (an exercise is worth that much, so nobody sells for less).
 */
export function quoteAround(model: number, moneyness: number, intrinsic = 0): MarketQuote {
  const spread = 0.02 + model * (0.01 + 0.05 * Math.min(1, Math.abs(moneyness) / 3));
  const half = spread / 2;
  let bid = model < 0.02 ? 0 : Math.max(0.01, floorCents(model - half), ceilCents(intrinsic));
  const ask = Math.max(bid + 0.01, 0.01, ceilCents(model + half));
  bid = Math.min(bid, ask);
  return { model, bid, ask, last: markOf(model) };
}

/** The price an option is marked at (its last trade and daily close): the model price in cents. */
export function markOf(model: number): number {
  return Math.max(0.01, roundCents(model));
}

export function modelPrice(
  type: OptionType,
  spot: number,
  strike: number,
  years: number,
  dividendYield: number,
  volatility: number,
  rate: number,
): number {
  return bsPrice(type, { spot, strike, years, rate, dividendYield, volatility });
}

/** Strike spacing by price, as listed exchanges do. */
export function strikeStep(spot: number): number {
  if (spot < 10) return 0.5;
  if (spot < 25) return 1;
  if (spot < 100) return 2.5;
  if (spot < 500) return 5;
  return 10;
}

/** Strikes from about 35% below to 20% above spot. */
export function strikeGrid(spot: number): number[] {
  const step = strikeStep(spot);
  const first = Math.ceil((spot * 0.65) / step);
  const last = Math.floor((spot * 1.2) / step);
  const strikes: number[] = [];
  for (let i = Math.max(1, first); i <= last; i++) strikes.push(Math.round(i * step * 1000) / 1000);
  return strikes;
}

export interface ListedExpiration {
  expiration: string;
  monthly: boolean;
}

/**
 * Eight weekly Fridays from `dayNumber` on, plus the monthly third Fridays within about six months;
 * an expiry on an exchange holiday moves to the trading day before it (a Thursday when Friday is closed).
 */
export function listedExpirations(dayNumber: number): ListedExpiration[] {
  const monthly = new Set<number>();
  const start = new Date(dayNumber * 86_400_000);
  for (let m = 0; m <= 7; m++) {
    const day = thirdFriday(start.getUTCFullYear(), start.getUTCMonth() + m);
    if (day >= dayNumber && day <= dayNumber + 183) monthly.add(day);
  }
  const firstFriday = dayNumber + ((5 - weekdayOf(dayNumber) + 7) % 7);
  const all = new Set(monthly);
  for (let w = 0; w < 8; w++) all.add(firstFriday + 7 * w);
  return [...all]
    .sort((a, b) => a - b)
    .map((day) => ({ day: previousTradingDay(day), monthly: monthly.has(day) }))
    .filter(({ day }) => day >= dayNumber)
    .map(({ day, monthly }) => ({ expiration: isoDateOf(day), monthly }));
}
