/**
 * The trades journal's filters, read from and written to the URL, and how its amounts are written.
 * Without zod: /portfolio and the roll screen load this first (ADR 0051).
 */

export const INSTRUMENTS = [
  { value: "all", label: "Stocks and Options" },
  { value: "stocks", label: "Stocks" },
  { value: "options", label: "Options" },
] as const;

export const PERIODS = [
  { value: "all", label: "All Time" },
  { value: "6m", label: "Last 6 Months" },
  { value: "3m", label: "Last 3 Months" },
  { value: "2m", label: "Last 2 Months" },
  { value: "30d", label: "Last 30 Days" },
  { value: "7d", label: "Last 7 Days" },
] as const;

type InstrumentFilter = (typeof INSTRUMENTS)[number]["value"];
type PeriodFilter = (typeof PERIODS)[number]["value"];
type Instrument = Exclude<InstrumentFilter, "all">;

const DEFAULT_INSTRUMENT: InstrumentFilter = "all";
/** docs/product.md#screens-trades: the period defaults to Last 7 Days. */
const DEFAULT_PERIOD: PeriodFilter = "7d";

interface JournalFilters {
  instrument: InstrumentFilter;
  period: PeriodFilter;
}

/** `value` when it is one of `choices`, else `fallback`. */
function oneOf<T extends string>(choices: readonly { value: T }[], value: string | null, fallback: T): T {
  return choices.find((choice) => choice.value === value)?.value ?? fallback;
}

/** Unknown or missing values fall back to the defaults, so any hand-edited URL still shows a list. */
export function readFilters(search: URLSearchParams): JournalFilters {
  return {
    instrument: oneOf(INSTRUMENTS, search.get("instrument"), DEFAULT_INSTRUMENT),
    period: oneOf(PERIODS, search.get("period"), DEFAULT_PERIOD),
  };
}

/** The query string for a set of filters, e.g. "?instrument=options&period=30d". */
export function filtersSearch(filters: JournalFilters): string {
  return `?${new URLSearchParams({ instrument: filters.instrument, period: filters.period })}`;
}

/** `date` moved back by whole calendar months, clamped to the month's last day (31 May − 3 months = 28/29 Feb). */
export function monthsBefore(date: Date, months: number): Date {
  const result = new Date(date);
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

const DAY_MS = 86_400_000;

/** The earliest moment a period includes, or null for All Time. */
export function periodStart(period: PeriodFilter, now: Date): Date | null {
  switch (period) {
    case "all":
      return null;
    case "6m":
      return monthsBefore(now, 6);
    case "3m":
      return monthsBefore(now, 3);
    case "2m":
      return monthsBefore(now, 2);
    case "30d":
      return new Date(now.getTime() - 30 * DAY_MS);
    case "7d":
      return new Date(now.getTime() - 7 * DAY_MS);
  }
}

/** Rows of the chosen instrument opened within the chosen period (up to `now`), newest first. */
export function filterTrades<T extends { instrument: Instrument; openedAt: string }>(
  trades: readonly T[],
  filters: JournalFilters,
  now: Date,
): T[] {
  const start = periodStart(filters.period, now)?.getTime() ?? -Infinity;
  const end = now.getTime();
  return trades
    .filter((t) => filters.instrument === "all" || t.instrument === filters.instrument)
    .filter((t) => {
      const at = Date.parse(t.openedAt);
      return at >= start && at <= end;
    })
    .sort((a, b) => Date.parse(b.openedAt) - Date.parse(a.openedAt));
}

const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A profit or loss with its sign: "+$1,234.50", "−$56.00", "$0.00". */
export function formatSignedMoney(value: number): string {
  const text = `$${money.format(Math.abs(value))}`;
  if (text === "$0.00") return text;
  return value > 0 ? `+${text}` : `\u2212${text}`;
}

/** A share as a percentage, "58.31%", "−10.00%"; a dash when there is none. */
export function formatPercent(value: number | null): string {
  if (value === null) return "\u2014";
  const text = `${(Math.abs(value) * 100).toFixed(2)}%`;
  return value < 0 && text !== "0.00%" ? `\u2212${text}` : text;
}

/** An amount in dollars, "$5,000.00", "−$12.50". */
export function formatMoney(value: number): string {
  const text = `$${money.format(Math.abs(value))}`;
  return value < 0 && text !== "$0.00" ? `\u2212${text}` : text;
}
