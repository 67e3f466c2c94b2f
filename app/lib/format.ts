/** docs/product.md#constants-display. Pure functions: the same text on the server and in the browser. */

const NAME_LIMIT = 45;

/** Company name cut to 45 characters plus '...'. */
export function truncateName(name: string, limit = NAME_LIMIT): string {
  return name.length > limit ? `${name.slice(0, limit)}...` : name;
}

const fixed = (digits: number) =>
  new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: true });
const two = fixed(2);
const one = fixed(1);
const zero = fixed(0);

/** Current price: 2 decimals. */
export const formatPrice = (value: number) => two.format(value);
/** Intrinsic value: 1 decimal. */
export const formatIv = (value: number) => one.format(value);
/** Buy level: 0 decimals. */
export const formatLevel = (value: number) => zero.format(value);
/** Monthly ROI etc.: a fraction as a percentage with 1 decimal (0.0214 → "2.1%"). */
export const formatPercent = (fraction: number, digits = 1) => `${fixed(digits).format(fraction * 100)}%`;
/** Implied volatility and greeks: 2 decimals. */
export const formatGreek = (value: number) => two.format(value);

/** Price is green when the average IV is above it, else grey. */
export const priceTone = (price: number, averageIv: number): "green" | "grey" => (averageIv > price ? "green" : "grey");
/** A buy level is grey below the current price, green otherwise. */
export const levelTone = (level: number, price: number): "green" | "grey" => (level < price ? "grey" : "green");

const dateTime = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
  timeZone: "UTC",
});
/** en-GB, short month, 24-hour: "21 Nov 2026, 20:38" (UTC so server and browser agree). */
export const formatDateTime = (iso: string | Date) => dateTime.format(typeof iso === "string" ? new Date(iso) : iso);

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
