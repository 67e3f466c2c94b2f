/**
 * The stock forms' fields, labels and texts, without zod: the pages render with these before the
 * forms' schemas (app/lib/stock-schemas.ts) load (ADR 0051).
 */

/** Tickers are at most this long (the contract's limit). */
export const TICKER_MAX = 10;

/** The value fields every stock form has, with their labels (docs/product.md#screens-watchlist-add), in the order shown. */
export const INTRINSIC_FIELDS = [
  { name: "base_iv", label: "Base Value" },
  { name: "conservative_iv", label: "Cons Value" },
] as const;
export const SUPPORT_FIELDS = [
  // One name per thing (issue 46): the lists say "1st buy level", so the forms do too.
  { name: "buy_level_one", label: "1st buy level", editLabel: "1st buy level" },
  { name: "buy_level_two", label: "2nd buy level", editLabel: "2nd buy level" },
  { name: "buy_level_three", label: "3rd buy level", editLabel: "3rd buy level" },
  { name: "buy_level_four", label: "4th buy level", editLabel: "4th buy level" },
] as const;

/** The company-name lookup answers a bare string or `{ company_name }` (docs/product.md#calls-stocks); both mean the same. */
export function companyNameOf(answer: string | { company_name: string }): string {
  return typeof answer === "string" ? answer : answer.company_name;
}

/** docs/product.md#screens-watchlist-edit: Average Value, read-only, the mean of base and conservative IV. */
export function averageIv(base: number, conservative: number): number {
  return (base + conservative) / 2;
}

/** The form's text for a stored value: "0" stays "0", 12.5 → "12.5". */
export function valueText(value: number): string {
  return Number.isFinite(value) ? String(value) : "";
}

/** docs/product.md#validation-stock: the UIP category is required; the select's first, empty option reads this. */
export const CATEGORY_PLACEHOLDER = "Select a category";
export const CATEGORY_REQUIRED = "Category is required";
