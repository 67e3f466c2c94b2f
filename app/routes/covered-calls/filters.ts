/**
 * The covered-call filters on /insights/calls (docs/decisions/0079): in the URL as the GET form sends
 * them (the spread in percent, booleans as 1/0), saved per trader with "Save as my defaults". Pure,
 * so the server render, the browser and the tests agree; the provider checks the same limits.
 */
import type { CallFilters } from "#contract/covered-calls.ts";

export const CALL_FILTER_FIELDS = [
  "at_or_above_basis",
  "at_or_above_base_value",
  "skip_earnings",
  "delta_min",
  "delta_max",
  "dte_min",
  "dte_max",
  "min_bid",
  "min_open_interest",
  "max_spread",
] as const satisfies readonly (keyof CallFilters)[];
export type CallFilterField = (typeof CALL_FILTER_FIELDS)[number];
const BOOLEAN_FIELDS = new Set<CallFilterField>(["at_or_above_basis", "at_or_above_base_value", "skip_earnings"]);

/** The filters as the form shows them (strings, the spread in percent). */
export type CallFilterForm = Record<CallFilterField, string>;

/** A checkbox after its hidden "0" sends both, and the checked one comes last. */
const lastOf = (params: URLSearchParams | FormData, name: string) => {
  const value = params.getAll(name).at(-1);
  return typeof value === "string" ? value.trim() : null;
};

/** The filters the URL sets, as the form shows them; null when it sets none. */
export function callFiltersInUrl(params: URLSearchParams): Partial<CallFilterForm> | null {
  const found: Partial<CallFilterForm> = {};
  for (const field of CALL_FILTER_FIELDS) {
    const value = lastOf(params, field);
    if (value) found[field] = value;
  }
  return Object.keys(found).length ? found : null;
}

const trim = (n: number) => String(Math.round(n * 1e6) / 1e6);

/** Saved filters as the form shows them. */
export function callFormOf(filters: CallFilters): CallFilterForm {
  const form = {} as CallFilterForm;
  for (const field of CALL_FILTER_FIELDS) {
    const value = filters[field];
    form[field] =
      typeof value === "boolean" ? (value ? "1" : "0") : field === "max_spread" ? trim(value * 100) : String(value);
  }
  return form;
}

/** Form values as the provider's query (the spread as a fraction). */
export function callProviderQuery(form: Partial<CallFilterForm>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [field, value] of Object.entries(form) as [CallFilterField, string][]) {
    if (BOOLEAN_FIELDS.has(field)) query[field] = value === "1" ? "1" : "0";
    else if (field === "max_spread") query[field] = Number.isFinite(Number(value)) ? trim(Number(value) / 100) : value;
    else query[field] = value;
  }
  return query;
}

/** A posted form's fields, the last of each. */
export function callFormFrom(formData: FormData): CallFilterForm {
  const form = {} as CallFilterForm;
  for (const field of CALL_FILTER_FIELDS) form[field] = lastOf(formData, field) ?? "";
  return form;
}

/** Form values as the body that saves them; numbers stay NaN when unreadable, for the schema to refuse. */
export function callFiltersBody(form: CallFilterForm): Record<CallFilterField, number | boolean> {
  const body = {} as Record<CallFilterField, number | boolean>;
  for (const field of CALL_FILTER_FIELDS) {
    const value = form[field];
    body[field] = BOOLEAN_FIELDS.has(field)
      ? value === "1"
      : value === ""
        ? Number.NaN
        : field === "max_spread"
          ? Number(value) / 100
          : Number(value);
  }
  return body;
}
