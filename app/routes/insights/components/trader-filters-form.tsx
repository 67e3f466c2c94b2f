import { Form } from "react-router";
import { FILTER_BOUNDS, FILTER_LABELS, type NumericFilter } from "#contract/filter-labels.ts";
import { INSIGHTS_PARAM as PARAM, INSIGHTS_PATH } from "#app/lib/insights.ts";
import { INSIGHTS_INTENT } from "#app/lib/insights-intents.ts";
import type { FilterForm } from "#app/lib/trader-filters.ts";

/** The numeric filters in the form's order, with their step; labels and bounds come from the contract. */
const FILTER_INPUTS: { field: NumericFilter; step: string }[] = [
  { field: "delta_min", step: "0.01" },
  { field: "delta_max", step: "0.01" },
  { field: "dte_min", step: "1" },
  { field: "dte_max", step: "1" },
  { field: "min_bid", step: "0.01" },
  { field: "min_open_interest", step: "1" },
  { field: "max_spread", step: "0.1" },
  { field: "commission", step: "0.01" },
];

/**
 * The trader's filters (ADR 0022): a GET form, so the values sit in the URL and it works without
 * JavaScript; "Save as my defaults" posts the same fields. Booleans send a hidden 0 before the
 * checkbox's 1 (the last one counts), so unticking is kept too.
 */
export function TraderFiltersForm({
  values,
  error,
  open,
  query,
  max,
  shown,
}: {
  values: FilterForm;
  error: string | null;
  open: string | null;
  query: string;
  max: string | null;
  /** How many cards the list shows (ADR 0102), kept when the filters apply. */
  shown: string | null;
}) {
  return (
    <details className="ins-trader-filters" open={error ? true : undefined}>
      <summary>Your filters</summary>
      {error ? (
        <p className="list-error" role="alert">
          {error}
        </p>
      ) : null}
      <Form method="get" action={INSIGHTS_PATH} className="ins-trader-filters__form" key={JSON.stringify(values)}>
        {query ? <input type="hidden" name={PARAM.query} value={query} /> : null}
        {max ? <input type="hidden" name={PARAM.maxStrike} value={max} /> : null}
        {open ? <input type="hidden" name={PARAM.open} value={open} /> : null}
        {shown ? <input type="hidden" name={PARAM.shown} value={shown} /> : null}
        <label className="ins-check">
          <input type="hidden" name="at_or_below_conservative" value="0" />
          <input
            type="checkbox"
            name="at_or_below_conservative"
            value="1"
            defaultChecked={values.at_or_below_conservative === "1"}
          />
          Only strikes at or below my conservative value
        </label>
        <label className="ins-check">
          <input type="hidden" name="skip_earnings" value="0" />
          <input type="checkbox" name="skip_earnings" value="1" defaultChecked={values.skip_earnings === "1"} />
          Skip expiries that span the next earnings report
        </label>
        <div className="ins-trader-filters__grid">
          {FILTER_INPUTS.map(({ field, step }) => {
            const { min, max: top, percent } = FILTER_BOUNDS[field];
            // The spread is a fraction in the call and a percentage on the form.
            const shown = (n: number) => (percent ? Math.round(n * 10_000) / 100 : n);
            return (
              <div className="ins-field" key={field}>
                <label htmlFor={`filter-${field}`}>{FILTER_LABELS[field]}</label>
                <span className="ins-input">
                  <input
                    id={`filter-${field}`}
                    name={field}
                    type="number"
                    inputMode="decimal"
                    step={step}
                    min={shown(min)}
                    max={shown(top)}
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
          <button type="submit" className="button" formMethod="post" name="intent" value={INSIGHTS_INTENT.saveFilters}>
            Save as my defaults
          </button>
        </div>
      </Form>
    </details>
  );
}
