/**
 * The trader's recommendation filters on /insights (ADR 0022): in the URL as a GET form sends them
 * (the spread in percent, booleans as 1/0), saved per user with "Save as my defaults". Pure, so the
 * server render, the browser and the tests agree; the provider checks the same limits.
 */
import type { TraderFilters } from "#contract/trader-filters.ts";

export const FILTER_FIELDS = [
  "at_or_below_conservative",
  "delta_min",
  "delta_max",
  "dte_min",
  "dte_max",
  "min_bid",
  "min_open_interest",
  "max_spread",
  "skip_earnings",
  "commission",
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
const BOOLEAN_FIELDS = new Set<FilterField>(["at_or_below_conservative", "skip_earnings"]);

/** The filters as the form shows them (strings, the spread in percent). */
export type FilterForm = Record<FilterField, string>;

/** The last value of a field: a checkbox after its hidden "0" sends both, and the checked one comes last. */
const lastOf = (params: URLSearchParams, name: string) => params.getAll(name).at(-1) ?? null;

/** The filters the URL sets, as the form shows them; null when it sets none. */
export function filtersInUrl(params: URLSearchParams): Partial<FilterForm> | null {
  const found: Partial<FilterForm> = {};
  for (const field of FILTER_FIELDS) {
    const value = lastOf(params, field)?.trim();
    if (value) found[field] = value;
  }
  return Object.keys(found).length ? found : null;
}

/** Saved filters as the form shows them. */
export function formOf(filters: TraderFilters): FilterForm {
  const form = {} as FilterForm;
  for (const field of FILTER_FIELDS) {
    const value = filters[field];
    form[field] =
      typeof value === "boolean" ? (value ? "1" : "0") : field === "max_spread" ? trim(value * 100) : String(value);
  }
  return form;
}

const trim = (n: number) => String(Math.round(n * 1e6) / 1e6);

/** Form values as the provider's query (the spread as a fraction). */
export function providerQuery(form: Partial<FilterForm>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [field, value] of Object.entries(form) as [FilterField, string][]) {
    if (BOOLEAN_FIELDS.has(field)) query[field] = value === "1" ? "1" : "0";
    else if (field === "max_spread") query[field] = Number.isFinite(Number(value)) ? trim(Number(value) / 100) : value;
    else query[field] = value;
  }
  return query;
}

/** Form values as the body that saves them; numbers stay NaN when unreadable, for the schema to refuse. */
export function filtersBody(form: FilterForm): Record<FilterField, number | boolean> {
  const body = {} as Record<FilterField, number | boolean>;
  for (const field of FILTER_FIELDS) {
    const value = form[field];
    body[field] = BOOLEAN_FIELDS.has(field)
      ? value === "1"
      : field === "max_spread"
        ? Number(value) / 100
        : value.trim() === ""
          ? Number.NaN
          : Number(value);
  }
  return body;
}

/** Whether two URLs ask for different filters (the list must then be read again). */
export function filtersDiffer(a: URLSearchParams, b: URLSearchParams): boolean {
  return FILTER_FIELDS.some((field) => lastOf(a, field) !== lastOf(b, field));
}
