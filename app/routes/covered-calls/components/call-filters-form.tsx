import { Form } from "react-router";
import { CALL_FILTER_CHECKS } from "#contract/call-filter-labels.ts";
import { COVERED_CALLS_PATH } from "#app/routes/covered-calls/paths.ts";
import type { CallFilterForm } from "#app/routes/covered-calls/filters.ts";
import { COVERED_CALLS_INTENT } from "#app/routes/covered-calls/intents.ts";

/** A numeric filter as the form shows it (labels and bounds from the contract, sent by the loader). */
export interface NumericField {
  name: string;
  label: string;
  step: string;
  min: number;
  max: number;
}

/**
 * The trader's call filters (ADR 0079), the same shape as the put filters: a GET form, so the values
 * sit in the URL and it works without JavaScript; "Save as my defaults" posts the same fields.
 * Checkboxes send a hidden 0 before their 1 (the last one counts), so unticking is kept too.
 */
export function CallFiltersForm({
  values,
  error,
  fields,
}: {
  values: CallFilterForm;
  error: string | null;
  fields: NumericField[];
}) {
  return (
    <details className="ins-trader-filters" open={error ? true : undefined}>
      <summary>Your call filters</summary>
      {error ? (
        <p className="list-error" role="alert">
          {error}
        </p>
      ) : null}
      <Form method="get" action={COVERED_CALLS_PATH} className="ins-trader-filters__form" key={JSON.stringify(values)}>
        {(Object.keys(CALL_FILTER_CHECKS) as (keyof typeof CALL_FILTER_CHECKS)[]).map((field) => (
          <label className="ins-check" key={field}>
            <input type="hidden" name={field} value="0" />
            <input type="checkbox" name={field} value="1" defaultChecked={values[field] === "1"} />
            {CALL_FILTER_CHECKS[field]}
          </label>
        ))}
        <div className="ins-trader-filters__grid">
          {fields.map((field) => (
            <div className="ins-field" key={field.name}>
              <label htmlFor={`call-filter-${field.name}`}>{field.label}</label>
              <span className="ins-input">
                <input
                  id={`call-filter-${field.name}`}
                  name={field.name}
                  type="number"
                  inputMode="decimal"
                  step={field.step}
                  min={field.min}
                  max={field.max}
                  defaultValue={values[field.name as keyof CallFilterForm]}
                />
              </span>
            </div>
          ))}
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
