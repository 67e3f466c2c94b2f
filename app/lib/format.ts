/** docs/product.md#constants-display. Pure functions: the same text on the server and in the browser. */

const NAME_LIMIT = 45;

/** Company name cut to 45 characters plus '...'. */
export function truncateName(name: string, limit = NAME_LIMIT): string {
  return name.length > limit ? `${name.slice(0, limit)}...` : name;
}

/**
 * `value` with exactly `digits` decimals and thousands commas, the text Intl.NumberFormat("en-US")
 * gives: rounded half away from zero on the shortest decimal that reads back as `value` (1.005 →
 * "1.01", -0.004 → "-0.00"). Written by hand because building the formatters cost a slow phone
 * about 140 ms of the list pages' first script task at 4× slowdown (docs/benchmarks.md);
 * format.test.ts holds it to Intl's text on generated values.
 */
export function fixedDecimals(value: number, digits: number): string {
  if (Number.isNaN(value)) return "NaN";
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  const size = Math.abs(value);
  if (size === Infinity) return `${sign}∞`;
  // String() is the shortest decimal that reads back as the number: "1.005", "5e-7", "1.2e+21".
  const shortest = String(size);
  // Most figures a page writes already have at most `digits` decimals (a price in cents, a whole
  // buy level): only zeros to add, no rounding, and none of the steps below (a list writes ~300).
  const dot = shortest.indexOf(".");
  if (shortest.indexOf("e") < 0 && (dot < 0 ? 0 : shortest.length - dot - 1) <= digits) {
    const units = dot < 0 ? shortest : shortest.slice(0, dot);
    const fraction = dot < 0 ? "" : shortest.slice(dot + 1);
    return `${sign}${withCommas(units)}${digits > 0 ? `.${fraction.padEnd(digits, "0")}` : ""}`;
  }
  // A plain decimal with more figures than kept (a level in cents, an average IV's long tail):
  // round on the first figure dropped, as below, without splitting the text.
  if (shortest.indexOf("e") < 0) {
    const cut = dot + 1 + digits;
    let kept = shortest.slice(0, dot) + shortest.slice(dot + 1, cut);
    if (shortest.charCodeAt(cut) >= 53) kept = roundedUp(kept);
    const units = kept.slice(0, kept.length - digits);
    return `${sign}${withCommas(units)}${digits > 0 ? `.${kept.slice(kept.length - digits)}` : ""}`;
  }
  const [mantissa = "", exponent = "0"] = shortest.split("e");
  const [whole = "", fraction = ""] = mantissa.split(".");
  let figures = whole + fraction;
  let point = whole.length + Number(exponent);
  if (point <= 0) {
    figures = "0".repeat(1 - point) + figures;
    point = 1;
  }
  const end = point + digits;
  let kept = figures.length >= end ? figures.slice(0, end) : figures.padEnd(end, "0");
  // The first figure dropped is 5 or more: round up, carrying as far as needed (9.995 → 10.00).
  if (figures.length > end && figures.charCodeAt(end) >= 53) kept = roundedUp(kept);
  // No leading zeros to strip: String() writes none, and a padded carry only happens below 1.
  const units = kept.slice(0, kept.length - digits);
  const decimals = digits > 0 ? `.${kept.slice(kept.length - digits)}` : "";
  return `${sign}${withCommas(units)}${decimals}`;
}

/** Whole figures with thousands commas: "1234567" → "1,234,567" (the pattern only where there is a thousand). */
function withCommas(units: string): string {
  return units.length > 3 ? units.replace(/\B(?=(\d{3})+(?!\d))/g, ",") : units;
}

/** A string of decimal figures plus one in its last place: "0199" → "0200", "999" → "1000". */
function roundedUp(figures: string): string {
  let i = figures.length - 1;
  while (i >= 0 && figures.charCodeAt(i) === 57) i--;
  if (i < 0) return `1${"0".repeat(figures.length)}`;
  return figures.slice(0, i) + String.fromCharCode(figures.charCodeAt(i) + 1) + "0".repeat(figures.length - 1 - i);
}

/** Current price: 2 decimals. */
export const formatPrice = (value: number) => fixedDecimals(value, 2);
/** Intrinsic value: 1 decimal. */
export const formatIv = (value: number) => fixedDecimals(value, 1);
/** Buy level: 0 decimals. */
export const formatLevel = (value: number) => fixedDecimals(value, 0);
/** Monthly ROI etc.: a fraction as a percentage with 1 decimal (0.0214 → "2.1%"). */
export const formatPercent = (fraction: number, digits = 1) => `${fixedDecimals(fraction * 100, digits)}%`;
/** Implied volatility and greeks: 2 decimals. */
export const formatGreek = (value: number) => fixedDecimals(value, 2);

/** Price is green when the average IV is above it, else grey. */
export const priceTone = (price: number, averageIv: number): "green" | "grey" => (averageIv > price ? "green" : "grey");
/** A buy level is grey below the current price, green otherwise. */
export const levelTone = (level: number, price: number): "green" | "grey" => (level < price ? "grey" : "green");

// Built on first use: the list pages never show a date.
let dateTime: Intl.DateTimeFormat | undefined;
const dateTimeOptions: Intl.DateTimeFormatOptions = {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
  timeZone: "UTC",
};
/** en-GB, short month, 24-hour: "21 Nov 2026, 20:38" (UTC so server and browser agree). */
export const formatDateTime = (iso: string | Date) =>
  (dateTime ??= new Intl.DateTimeFormat("en-GB", dateTimeOptions)).format(
    typeof iso === "string" ? new Date(iso) : iso,
  );

/** "3 days ago", "5 hours ago", "2 minutes ago", "40 seconds ago". */
export function formatAge(iso: string | Date, now: Date = new Date()): string {
  const then = typeof iso === "string" ? new Date(iso) : iso;
  const seconds = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"} ago`;
  if (seconds >= 86_400) return unit(Math.floor(seconds / 86_400), "day");
  if (seconds >= 3_600) return unit(Math.floor(seconds / 3_600), "hour");
  if (seconds >= 60) return unit(Math.floor(seconds / 60), "minute");
  return unit(seconds, "second");
}

/** Notification age: 'Just now' under 60 s, then "5m ago", "3h ago", "2d ago". */
export function formatNotificationAge(iso: string | Date, now: Date = new Date()): string {
  const then = typeof iso === "string" ? new Date(iso) : iso;
  const seconds = Math.floor((now.getTime() - then.getTime()) / 1000);
  if (seconds < 60) return "Just now";
  if (seconds < 3_600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}
