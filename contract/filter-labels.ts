/**
 * What each numeric recommendation filter is called on the /insights form, and so in every refusal
 * of it, and its bounds (docs/product.md#screens-insights-filters). Free of zod, so a page can import it cheaply.
 */
export const FILTER_LABELS = {
  delta_min: "|Delta| from",
  delta_max: "|Delta| to",
  dte_min: "Days to expiry from",
  dte_max: "Days to expiry to",
  min_bid: "Minimum bid ($)",
  min_open_interest: "Minimum open interest",
  max_spread: "Maximum spread (% of mid)",
  commission: "Commission per contract ($)",
} as const;
export type NumericFilter = keyof typeof FILTER_LABELS;

/**
 * Each numeric filter's bounds, in the call's units (fractions for the spread); the form shows the
 * spread in percent. `whole` filters take whole numbers.
 */
export const FILTER_BOUNDS: Record<NumericFilter, { min: number; max: number; whole?: true; percent?: true }> = {
  delta_min: { min: 0, max: 0.6 },
  delta_max: { min: 0.01, max: 0.6 },
  dte_min: { min: 1, max: 90, whole: true },
  dte_max: { min: 1, max: 90, whole: true },
  min_bid: { min: 0.05, max: 1000 },
  min_open_interest: { min: 0, max: 1_000_000, whole: true },
  max_spread: { min: 0.01, max: 0.5, percent: true },
  commission: { min: 0, max: 10 },
};
