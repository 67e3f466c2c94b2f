/**
 * What each numeric recommendation filter is called on the /insights form, and so in every refusal
 * of it (docs/product.md#screens-insights-filters). Free of zod, so a page can import it cheaply.
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
