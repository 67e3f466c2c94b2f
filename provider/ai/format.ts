/**
 * How explanations write numbers: money with 2 decimals, fractions as percentages with 1 decimal,
 * greeks with 2 decimals (docs/product.md#constants-display), dates en-GB. Renderings only; no arithmetic beyond scaling
 * a fraction to a percentage and dropping a sign the words already carry.
 */

const moneyFormat = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** $1,234.50; the size only (the sentence says gain or loss). */
export const money = (value: number) => `$${moneyFormat.format(Math.abs(value))}`;

/** 0.0213 → 2.1%; the size only. */
export const percent = (fraction: number) => `${(Math.abs(fraction) * 100).toFixed(1)}%`;

/**
 * A fraction as a percentage with the digits the screens use for the same figure (app/lib/format.ts
 * formatPercent): IV rank and percentile with none, the T-bill return with 2. The size only.
 */
export const percentTo = (fraction: number, digits: number) => `${(Math.abs(fraction) * 100).toFixed(digits)}%`;

/** Greeks and ratios with their sign: -0.25. */
export const fixed2 = (value: number) => value.toFixed(2);

/** A count as digits: 1,234. */
export const count = (value: number) => Math.round(value).toLocaleString("en-US");

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const dateTimeFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** YYYY-MM-DD → 18 Dec 2026. */
export const day = (isoDate: string) => dateFormat.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));

/** An instant → 18 Nov 2026, 17:00 UTC. */
export const instant = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

/** up 3.2% / down 3.2% / unchanged. */
export const change = (fraction: number) =>
  Math.abs(fraction) < 0.0005 ? "unchanged" : `${fraction > 0 ? "up" : "down"} ${percent(fraction)}`;

/** 0.048 → "4.8% above", -0.048 → "4.8% below", ~0 → "at". */
export const aboveBelow = (fraction: number) =>
  Math.abs(fraction) < 0.0005 ? "at" : `${percent(fraction)} ${fraction > 0 ? "above" : "below"}`;

export const ORDINAL = { one: "first", two: "second", three: "third", four: "fourth" } as const;

/** "a, b and c". */
export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
