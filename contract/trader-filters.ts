/**
 * A trader's recommendation filters (ADR 0022), the schema the /insights form, the app and the
 * provider all check. Kept out of entities.ts, which every screen loads, so its messages cost the
 * first load nothing.
 */
import { z } from "zod";
import { FILTER_BOUNDS, FILTER_LABELS, type NumericFilter } from "./filter-labels.ts";

/**
 * One numeric filter, refused with a sentence that names it as the /insights form does (its label)
 * and states its bounds as the form shows them: the spread, a fraction here, in percent of the mid.
 */
export function filterNumber(field: NumericFilter) {
  const label = FILTER_LABELS[field];
  const { min, max, whole, percent } = FILTER_BOUNDS[field];
  const show = (n: number) => (percent ? `${Math.round(n * 100)}%` : n.toLocaleString("en-US"));
  const range = `'${label}' must be ${whole ? "a whole number " : ""}from ${show(min)} to ${show(max)}${percent ? " of the mid" : ""}.`;
  const number = z.number({ error: `'${label}' must be a number.` });
  return (whole ? number.int({ error: range }) : number).min(min, { error: range }).max(max, { error: range });
}

/** A trader's recommendation filters (fractions where a share; commission in dollars per contract). */
export const TraderFilters = z
  .object({
    at_or_below_conservative: z.boolean(),
    delta_min: filterNumber("delta_min"),
    delta_max: filterNumber("delta_max"),
    dte_min: filterNumber("dte_min"),
    dte_max: filterNumber("dte_max"),
    min_bid: filterNumber("min_bid"),
    min_open_interest: filterNumber("min_open_interest"),
    max_spread: filterNumber("max_spread"),
    skip_earnings: z.boolean(),
    commission: filterNumber("commission"),
  })
  .refine((f) => f.delta_min <= f.delta_max, {
    message: `'${FILTER_LABELS.delta_min}' must not be above '${FILTER_LABELS.delta_max}'.`,
    path: ["delta_min"],
  })
  .refine((f) => f.dte_min <= f.dte_max, {
    message: `'${FILTER_LABELS.dte_min}' must not be above '${FILTER_LABELS.dte_max}'.`,
    path: ["dte_min"],
  });
export type TraderFilters = z.infer<typeof TraderFilters>;
