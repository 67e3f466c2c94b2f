/**
 * US market calendar in New York time: regular session 09:30–16:00, Monday to Friday, except the
 * NYSE holidays (with their weekend observance) and the 13:00 early closes. Trading-day numbers
 * (tradingIndexOf) count weekdays, holidays included, so a simulated price path keeps its days;
 * what a trader sees (market open, the session in force, expiries, days to expiry) skips holidays.
 */

export const OPEN_MINUTE = 9 * 60 + 30;
export const CLOSE_MINUTE = 16 * 60;
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

const HOUR_MS = 3_600_000;
/**
 * New York's UTC offset (ms) per UTC hour. Intl's formatToParts costs microseconds and the market
 * code asks the clock tens of thousands of times per generation round (docs/benchmarks.md); the
 * offset is whole hours and changes only on a UTC hour boundary (02:00 local), so one look-up per
 * hour gives the same fields.
 */
const offsetByHour = new Map<number, number>();

function nyOffsetMs(hour: number): number {
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    const at = hour * HOUR_MS;
    const parts: Record<string, number> = {};
    for (const p of nyFormat.formatToParts(new Date(at))) if (p.type !== "literal") parts[p.type] = Number(p.value);
    offset = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - at;
    if (offsetByHour.size > 10_000) offsetByHour.clear();
    offsetByHour.set(hour, offset);
  }
  return offset;
}

export function nyClock(date: Date): NyClock {
  const time = date.getTime();
  const local = time + nyOffsetMs(Math.floor(time / HOUR_MS));
  const dayNumber = Math.floor(local / DAY_MS);
  // The same sum of whole fields as from formatToParts, so the minutes agree to the last bit.
  const msOfDay = local - dayNumber * DAY_MS;
  const seconds = Math.floor(msOfDay / 1000);
  const hour = Math.floor(seconds / 3600);
  const minute = Math.floor((seconds % 3600) / 60);
  const second = seconds % 60;
  const minutes = hour * 60 + minute + second / 60 + date.getUTCMilliseconds() / 60_000;
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
  return isTradingDay(dayNumber) && minutes >= OPEN_MINUTE && minutes < closeMinuteOf(dayNumber);
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
  if (isTradingDay(dayNumber) && minutes >= OPEN_MINUTE) {
    const close = closeMinuteOf(dayNumber);
    const fraction = Math.min(1, (minutes - OPEN_MINUTE) / (close - OPEN_MINUTE));
    const day = tradingIndexOf(dayNumber);
    return { day, fraction, asOf: fraction < 1 ? now : nyInstant(dayNumber, close) };
  }
  // Before the open, at the weekend or on a holiday: the previous trading day's close.
  const previous = previousTradingDay(dayNumber - 1);
  return { day: tradingIndexOf(previous), fraction: 1, asOf: nyInstant(previous, closeMinuteOf(previous)) };
}

/** Years (of 365 days) from `asOf` to that day's close in New York on the expiration date; 0 once past. */
export function yearsToExpiry(asOf: Date, expiration: string): number {
  const ms = expiryInstant(expiration) - asOf.getTime();
  return Math.max(0, ms / (365 * DAY_MS));
}

/** Time-zone lookups are slow and chains ask for the same few expirations over and over. */
const expiryInstants = new Map<string, number>();

function expiryInstant(expiration: string): number {
  let ms = expiryInstants.get(expiration);
  if (ms === undefined) {
    const day = dayNumberOf(expiration);
    ms = nyInstant(day, closeMinuteOf(day)).getTime();
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

// ── NYSE holidays and early closes ──────────────────────────────────────────

/** The 13:00 close of the day before Independence Day, the day after Thanksgiving and Christmas Eve. */
const EARLY_CLOSE_MINUTE = 13 * 60;

const dayOf = (year: number, monthIndex: number, day: number) => Math.floor(Date.UTC(year, monthIndex, day) / DAY_MS);

/** The nth (1-based) given weekday (0 = Sunday) of a month. */
function nthWeekday(year: number, monthIndex: number, weekday: number, n: number): number {
  const first = dayOf(year, monthIndex, 1);
  return first + ((weekday - weekdayOf(first) + 7) % 7) + 7 * (n - 1);
}

function lastWeekday(year: number, monthIndex: number, weekday: number): number {
  const last = dayOf(year, monthIndex + 1, 0);
  return last - ((weekdayOf(last) - weekday + 7) % 7);
}

/** Easter Sunday (Gregorian, the anonymous algorithm of Meeus). */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayOf(year, month - 1, day);
}

/** A fixed-date holiday on a Saturday is kept on the Friday before, on a Sunday the Monday after. */
function observed(day: number): number {
  const w = weekdayOf(day);
  return w === 6 ? day - 1 : w === 0 ? day + 1 : day;
}

const holidayYears = new Map<number, Map<number, string>>();

/** The NYSE full-day holidays of a year, day number → name. */
export function nyseHolidays(year: number): Map<number, string> {
  let days = holidayYears.get(year);
  if (days) return days;
  days = new Map();
  // New Year's Day on a Saturday is not moved to the Friday before (that Friday closes the year).
  const newYear = dayOf(year, 0, 1);
  if (weekdayOf(newYear) !== 6) days.set(observed(newYear), "New Year's Day");
  days.set(nthWeekday(year, 0, 1, 3), "Martin Luther King Jr. Day");
  days.set(nthWeekday(year, 1, 1, 3), "Washington's Birthday");
  days.set(easter(year) - 2, "Good Friday");
  days.set(lastWeekday(year, 4, 1), "Memorial Day");
  if (year >= 2022) days.set(observed(dayOf(year, 5, 19)), "Juneteenth");
  days.set(observed(dayOf(year, 6, 4)), "Independence Day");
  days.set(nthWeekday(year, 8, 1, 1), "Labor Day");
  days.set(nthWeekday(year, 10, 4, 4), "Thanksgiving Day");
  days.set(observed(dayOf(year, 11, 25)), "Christmas Day");
  if (holidayYears.size > 50) holidayYears.clear();
  holidayYears.set(year, days);
  return days;
}

const yearOf = (dayNumber: number) => new Date(dayNumber * DAY_MS).getUTCFullYear();

/** The holiday's name when the exchange is closed that weekday, else null. */
export function holidayName(dayNumber: number): string | null {
  return nyseHolidays(yearOf(dayNumber)).get(dayNumber) ?? null;
}

export const isTradingDay = (dayNumber: number) => isWeekday(dayNumber) && holidayName(dayNumber) === null;

/** The day itself when the exchange trades, else the trading day before it. */
export function previousTradingDay(dayNumber: number): number {
  let day = dayNumber;
  while (!isTradingDay(day)) day--;
  return day;
}

/** Whether the session ends at 13:00: July 3 before a weekday Independence Day, Black Friday, Christmas Eve. */
export function isEarlyClose(dayNumber: number): boolean {
  if (!isTradingDay(dayNumber)) return false;
  const date = new Date(dayNumber * DAY_MS);
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  if (month === 6 && day === 3) return true; // a trading July 3 means July 4 is a Tuesday to Friday
  if (month === 11 && day === 24) return true;
  return month === 10 && holidayName(dayNumber - 1) === "Thanksgiving Day";
}

/** Minutes after New York midnight when that day's session closes. */
export const closeMinuteOf = (dayNumber: number) => (isEarlyClose(dayNumber) ? EARLY_CLOSE_MINUTE : CLOSE_MINUTE);

/** The open of the next regular session after `now` (holidays and weekends skipped): what "opens" says when closed. */
export function nextSessionOpen(now: Date): Date {
  const { dayNumber, minutes } = nyClock(now);
  let day = isTradingDay(dayNumber) && minutes < OPEN_MINUTE ? dayNumber : dayNumber + 1;
  for (let i = 0; i < 30 && !isTradingDay(day); i++) day++;
  return nyInstant(day, OPEN_MINUTE);
}
