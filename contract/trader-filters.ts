/**
 * A trader's recommendation filters (ADR 0022), the schema the /insights form, the app and the
 * provider all check. Kept out of entities.ts, which every screen loads, so its messages cost the
 * first load nothing.
 */
import { z } from "zod";
import { FILTER_LABELS, type NumericFilter } from "./filter-labels.ts";

/**
 * One numeric filter, refused with a sentence that names it as the /insights form does (its label)
 * and states its bounds as the form shows them: the spread, a fraction here, in percent of the mid.
 */
function filterNumber(field: NumericFilter, min: number, max: number, { whole = false, percent = false } = {}) {
  const label = FILTER_LABELS[field];
  const show = (n: number) => (percent ? `${Math.round(n * 100)}%` : n.toLocaleString("en-US"));
  const range = `'${label}' must be ${whole ? "a whole number " : ""}from ${show(min)} to ${show(max)}${percent ? " of the mid" : ""}.`;
  const number = z.number({ error: `'${label}' must be a number.` });
  return (whole ? number.int({ error: range }) : number).min(min, { error: range }).max(max, { error: range });
}

/** A trader's recommendation filters (fractions where a share; commission in dollars per contract). */
export const TraderFilters = z
  .object({
    at_or_below_conservative: z.boolean(),
    delta_min: filterNumber("delta_min", 0, 0.6),
    delta_max: filterNumber("delta_max", 0.01, 0.6),
    dte_min: filterNumber("dte_min", 1, 90, { whole: true }),
    dte_max: filterNumber("dte_max", 1, 90, { whole: true }),
    min_bid: filterNumber("min_bid", 0.05, 1000),
    min_open_interest: filterNumber("min_open_interest", 0, 1_000_000, { whole: true }),
    max_spread: filterNumber("max_spread", 0.01, 0.5, { percent: true }),
    skip_earnings: z.boolean(),
    commission: filterNumber("commission", 0, 10),
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
