import { zonedToIso } from "./zone.ts";

/**
 * What the brokers whose files give days but no times share (Schwab's layout and those of ADR 0096):
 * a trade is read at noon New York and an expiry or assignment at 16:00, so a buy-to-close and a
 * sell-to-open of one day are one roll (docs/decisions/0074-broker-imports-keep-the-wheel-whole.md).
 */
export const noonOf = (day: string) => zonedToIso(day, "12:00");
export const closeOf = (day: string) => zonedToIso(day, "16:00");

/** `MM/DD/YYYY`, `M/D/YYYY` or `MM/DD/YY` (US order) as `YYYY-MM-DD`; null when it is not one. */
export function usDay(text: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text.trim());
  if (!m) return null;
  const year = m[3]!.length === 2 ? `20${m[3]}` : m[3]!;
  const [month, day] = [Number(m[1]), Number(m[2])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
/** A month's three letters ("Jun", "JUN") as 1–12; 0 when it is not one. */
export const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toUpperCase()) + 1;
export const isoDay = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/**
 * The share lines of assignments and call-aways, which these brokers write as a plain buy or sell of
 * 100 × contracts at the strike on the assignment's day: each is the option line's share leg, and its
 * fees are added to the option line's (ADR 0074).
 */
export class ShareLegs {
  private readonly fees = new Map<string, number>();
  private key = (ticker: string, day: string | null, price: number) => `${ticker}|${day}|${price}`;

  /** An assignment or call-away of `ticker` at `strike`, posted on `day`. */
  assigned(ticker: string, day: string | null, strike: number) {
    this.fees.set(this.key(ticker, day, strike), 0);
  }
  /** Whether a buy or sell of `ticker` at `price` on `day` is an assignment's share leg. */
  isLeg(ticker: string, day: string | null, price: number) {
    return this.fees.has(this.key(ticker, day, price));
  }
  /** Adds a share leg's fees to its option line's. */
  addFees(ticker: string, day: string | null, price: number, fees: number) {
    const key = this.key(ticker, day, price);
    if (this.fees.has(key) && Number.isFinite(fees)) this.fees.set(key, this.fees.get(key)! + Math.abs(fees));
  }
  feesOf(ticker: string, day: string | null, strike: number) {
    return this.fees.get(this.key(ticker, day, strike)) ?? 0;
  }
}

export const cents = (n: number) => Math.round(n * 100) / 100;
