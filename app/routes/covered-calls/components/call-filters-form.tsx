import { Form, href } from "react-router";
import { FILTER_BOUNDS, FILTER_LABELS } from "#contract/filter-labels.ts";
import { CALL_FILTER_CHECKS, CALL_NUMERIC_FILTERS, type CallNumericFilter } from "#contract/call-filter-labels.ts";
import type { CallFilterForm } from "#app/routes/covered-calls/filters.ts";
import { COVERED_CALLS_INTENT } from "#app/routes/covered-calls/intents.ts";

const STEP: Record<CallNumericFilter, string> = {
  delta_min: "0.01",
  delta_max: "0.01",
  dte_min: "1",
  dte_max: "1",
  min_bid: "0.01",
  min_open_interest: "1",
  max_spread: "0.1",
};

/**
 * The trader's call filters (ADR 0079), the same shape as the put filters: a GET form, so the values
 * sit in the URL and it works without JavaScript; "Save as my defaults" posts the same fields.
 * Checkboxes send a hidden 0 before their 1 (the last one counts), so unticking is kept too.
 */
export function CallFiltersForm({ values, error }: { values: CallFilterForm; error: string | null }) {
  return (
    <details className="ins-trader-filters" open={error ? true : undefined}>
      <summary>Your call filters</summary>
      {error ? (
        <p className="list-error" role="alert">
          {error}
        </p>
      ) : null}
      <Form
        method="get"
        action={href("/insights/calls")}
        className="ins-trader-filters__form"
        key={JSON.stringify(values)}
      >
        {(Object.keys(CALL_FILTER_CHECKS) as (keyof typeof CALL_FILTER_CHECKS)[]).map((field) => (
          <label className="ins-check" key={field}>
            <input type="hidden" name={field} value="0" />
            <input type="checkbox" name={field} value="1" defaultChecked={values[field] === "1"} />
            {CALL_FILTER_CHECKS[field]}
          </label>
        ))}
        <div className="ins-trader-filters__grid">
          {CALL_NUMERIC_FILTERS.map((field) => {
            const { min, max, percent } = FILTER_BOUNDS[field];
            // The spread is a fraction in the call and a percentage on the form.
            const shown = (n: number) => (percent ? Math.round(n * 10_000) / 100 : n);
            return (
              <div className="ins-field" key={field}>
                <label htmlFor={`call-filter-${field}`}>{FILTER_LABELS[field]}</label>
                <span className="ins-input">
                  <input
                    id={`call-filter-${field}`}
                    name={field}
                    type="number"
                    inputMode="decimal"
                    step={STEP[field]}
                    min={shown(min)}
                    max={shown(max)}
                    defaultValue={values[field]}
                  />
                </span>
              </div>
            );
          })}
        </div>
        <div className="ins-trader-filters__actions">
          <button type="submit" className="button">
            Apply filters
          </button>
          <button
            type="submit"
            className="button"
            formMethod="post"
            name="intent"
            value={COVERED_CALLS_INTENT.saveFilters}
          >
            Save as my defaults
          </button>
        </div>
      </Form>
    </details>
  );
}
