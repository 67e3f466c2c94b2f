/**
 * US market calendar in New York time: regular session 09:30–16:00, Monday to Friday.
 * Exchange holidays are not modelled, so every weekday is a trading day.
 */

export const OPEN_MINUTE = 9 * 60 + 30;
export const CLOSE_MINUTE = 16 * 60;
export const SESSION_MINUTES = CLOSE_MINUTE - OPEN_MINUTE;
const DAY_MS = 86_400_000;
/** Day number (days since 1970-01-01) of Monday 1970-01-05, where trading-day numbering starts. */
const FIRST_MONDAY = 4;

const nyFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  hourCycle: "h23",
});

export interface NyClock {
  /** Calendar day in New York as days since 1970-01-01. */
  dayNumber: number;
  /** Minutes since New York midnight, with fractions for seconds and milliseconds. */
  minutes: number;
}

export function nyClock(date: Date): NyClock {
  const parts: Record<string, number> = {};
  for (const p of nyFormat.formatToParts(date)) if (p.type !== "literal") parts[p.type] = Number(p.value);
  const dayNumber = Math.floor(Date.UTC(parts.year!, parts.month! - 1, parts.day!) / DAY_MS);
  const minutes = parts.hour! * 60 + parts.minute! + parts.second! / 60 + date.getUTCMilliseconds() / 60_000;
  return { dayNumber, minutes };
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

export const isWeekday = (dayNumber: number) => {
  const w = weekdayOf(dayNumber);
  return w >= 1 && w <= 5;
};

export function dayNumberOf(isoDate: string): number {
  const [y, m, d] = isoDate.split("-").map(Number) as [number, number, number];
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}

export function isoDateOf(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/** Trading days are numbered consecutively, skipping weekends. A weekend maps to the Friday before. */
export function tradingIndexOf(dayNumber: number): number {
  const w = dayNumber - FIRST_MONDAY;
  const week = Math.floor(w / 7);
  return week * 5 + Math.min(w - week * 7, 4);
}

export function dayNumberOfTradingIndex(index: number): number {
  const week = Math.floor(index / 5);
  return FIRST_MONDAY + week * 7 + (index - week * 5);
}

/** The instant of a New York wall-clock time, daylight saving included. */
export function nyInstant(dayNumber: number, minutes: number): Date {
  const wall = dayNumber * DAY_MS + minutes * 60_000;
  // Guess with the EST offset, then correct by the offset actually in force (twice, for DST edges).
  let utc = wall + 5 * 3_600_000;
  for (let i = 0; i < 2; i++) {
    const c = nyClock(new Date(utc));
    const seen = c.dayNumber * DAY_MS + c.minutes * 60_000;
    utc += wall - seen;
  }
  return new Date(Math.round(utc));
}

export function isMarketOpen(date: Date): boolean {
  const { dayNumber, minutes } = nyClock(date);
  return isWeekday(dayNumber) && minutes >= OPEN_MINUTE && minutes < CLOSE_MINUTE;
}

export interface Session {
  /** Trading index of the latest session that has started. */
  day: number;
  /** How much of that session has passed: 0 at the open, 1 once closed. */
  fraction: number;
  /** When the prices were made: now while open, else that session's close. */
  asOf: Date;
}

/** The session whose prices apply at `now`: the current one while open, else the last one closed. */
export function sessionAt(now: Date): Session {
  const { dayNumber, minutes } = nyClock(now);
  if (isWeekday(dayNumber) && minutes >= OPEN_MINUTE) {
    const fraction = Math.min(1, (minutes - OPEN_MINUTE) / SESSION_MINUTES);
    const day = tradingIndexOf(dayNumber);
    return { day, fraction, asOf: fraction < 1 ? now : nyInstant(dayNumber, CLOSE_MINUTE) };
  }
  // Before the open or at the weekend: the previous weekday's close.
  const day = isWeekday(dayNumber) ? tradingIndexOf(dayNumber) - 1 : tradingIndexOf(dayNumber);
  return { day, fraction: 1, asOf: nyInstant(dayNumberOfTradingIndex(day), CLOSE_MINUTE) };
}

/** Years (of 365 days) from `asOf` to 16:00 New York time on the expiration date; 0 once past. */
export function yearsToExpiry(asOf: Date, expiration: string): number {
  const ms = expiryInstant(expiration) - asOf.getTime();
  return Math.max(0, ms / (365 * DAY_MS));
}

/** Time-zone lookups are slow and chains ask for the same few expirations over and over. */
const expiryInstants = new Map<string, number>();

function expiryInstant(expiration: string): number {
  let ms = expiryInstants.get(expiration);
  if (ms === undefined) {
    ms = nyInstant(dayNumberOf(expiration), CLOSE_MINUTE).getTime();
    if (expiryInstants.size > 5000) expiryInstants.clear();
    expiryInstants.set(expiration, ms);
  }
  return ms;
}

/** Day number of the third Friday of a month (monthIndex 0 = January), the standard monthly expiry. */
export function thirdFriday(year: number, monthIndex: number): number {
  const first = Math.floor(Date.UTC(year, monthIndex, 1) / DAY_MS);
  return first + ((5 - weekdayOf(first) + 7) % 7) + 14;
}
