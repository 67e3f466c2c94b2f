/**
 * The covered-call filters' checkboxes and defaults (docs/product.md#screens-covered-calls, ADR 0079).
 * The numeric fields share the put filters' labels and bounds (filter-labels.ts), so a refusal reads
 * the same on both tabs. Free of zod, so a page can import it cheaply.
 */
export const CALL_FILTER_CHECKS = {
  at_or_above_basis: "Only strikes at or above my adjusted cost basis",
  at_or_above_base_value: "Only strikes at or above my base value",
  skip_earnings: "Skip expiries that span the next earnings report",
} as const;
type CallFilterCheck = keyof typeof CALL_FILTER_CHECKS;

/** The numeric call filters, in the form's order (the commission is the put filters' one: a trader pays one). */
export const CALL_NUMERIC_FILTERS = [
  "delta_min",
  "delta_max",
  "dte_min",
  "dte_max",
  "min_bid",
  "min_open_interest",
  "max_spread",
] as const;
export type CallNumericFilter = (typeof CALL_NUMERIC_FILTERS)[number];

export const DEFAULT_CALL_FILTERS = {
  // "Never lock in a loss": a call below the adjusted basis, called away, sells the shares for less than they cost.
  at_or_above_basis: true,
  at_or_above_base_value: false,
  delta_min: 0.15,
  delta_max: 0.35,
  dte_min: 7,
  dte_max: 45,
  min_bid: 0.1,
  min_open_interest: 100,
  max_spread: 0.1,
  skip_earnings: true,
} as const satisfies Record<CallFilterCheck | CallNumericFilter, boolean | number>;
