/**
 * /insights/calls, the covered-call screen (docs/product.md#screens-covered-calls, ADR 0079): the
 * loader reads the calls for the trader's holdings through the URL's call filters (else their saved
 * ones); the action saves the filters as their defaults.
 */
import { data, href, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { CallFilters, type CoveredCalls } from "#contract/covered-calls.ts";
import { FILTER_BOUNDS, FILTER_LABELS } from "#contract/filter-labels.ts";
import { CALL_NUMERIC_FILTERS, type CallNumericFilter } from "#contract/call-filter-labels.ts";
import { recordTradeHref } from "#app/lib/record-trade.ts";
import { intentOf } from "#app/lib/intents.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast, Toast } from "#app/server/toast.server.ts";
import {
  CALL_FILTER_FIELDS,
  callFiltersBody,
  callFiltersInUrl,
  callFormFrom,
  callFormOf,
  callProviderQuery,
  type CallFilterForm,
} from "./filters.ts";
import { COVERED_CALLS_INTENTS } from "./intents.ts";

/** Calls priced from live quotes: no cache may keep a copy. */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

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
 * The numeric filters as the form shows them, labels and bounds from the contract (the spread in
 * percent): sent with the page so the form adds no shared module to the put list's first load.
 */
const NUMERIC_FIELDS = CALL_NUMERIC_FILTERS.map((name) => {
  const { min, max, percent } = FILTER_BOUNDS[name];
  const shown = (n: number) => (percent ? Math.round(n * 10_000) / 100 : n);
  return { name, label: FILTER_LABELS[name], step: STEP[name], min: shown(min), max: shown(max) };
});

/** Each call's "Record this trade" link: Add Trade's options form filled in with the call at the bid. */
function recordHrefsOf(screen: CoveredCalls | null): Record<string, string> {
  const hrefs: Record<string, string> = {};
  for (const holding of screen?.holdings ?? []) {
    for (const call of [...holding.calls, ...(holding.nearest ? [holding.nearest] : [])]) {
      hrefs[call.occ_symbol] = recordTradeHref({
        ticker: holding.ticker,
        strike: call.strike,
        expiry: call.expiry,
        bid: call.bid,
        type: "call",
      });
    }
  }
  return hrefs;
}

export async function loadCoveredCalls(request: Request, context: Readonly<RouterContextProvider>) {
  const url = new URL(request.url);
  const inUrl = callFiltersInUrl(url.searchParams);
  const read = (query: Record<string, string> | undefined) => userCall(context, calls.coveredCalls, { query });
  let screen: CoveredCalls | null = null;
  let error: string | null = null;
  let filtersError: string | null = null;
  try {
    screen = await read(inUrl ? callProviderQuery(inUrl) : undefined);
  } catch (failure) {
    if (!(failure instanceof ProviderError)) throw failure;
    if (failure.status === 422 && inUrl) {
      // Filters the provider refuses: say why, and show the calls through the saved ones.
      filtersError = failure.detail ?? messages.unexpected;
      screen = await read(undefined).catch((again: unknown) => {
        if (!(again instanceof ProviderError)) throw again;
        return null;
      });
    }
    if (!screen) error = messages.fetchCoveredCallsFailed;
  }
  const saved = screen ? callFormOf(screen.filters) : null;
  return data(
    {
      screen,
      error,
      filters: { ...saved, ...(filtersError ? {} : inUrl) } as CallFilterForm,
      filtersError,
      numericFields: NUMERIC_FIELDS,
      recordHrefs: recordHrefsOf(screen),
    },
    { headers: NO_STORE },
  );
}

export async function coveredCallsAction(request: Request, context: Readonly<RouterContextProvider>) {
  const formData = await request.formData();
  switch (intentOf(formData, COVERED_CALLS_INTENTS)) {
    case "save-call-filters":
      return saveCallFilters(context, formData);
    case null:
      throw data({ detail: "Unknown form" }, { status: 400 });
  }
}

/** "Save as my defaults": checked with the contract's schema, saved; the typed values stay in the URL either way. */
async function saveCallFilters(context: Readonly<RouterContextProvider>, formData: FormData) {
  const form = callFormFrom(formData);
  const search = new URLSearchParams();
  for (const field of CALL_FILTER_FIELDS) search.set(field, form[field]);
  const screenUrl = `${href("/insights/calls")}?${search}`;
  const toast = (ok: boolean, text: string) =>
    redirectWithToast(screenUrl, Toast.parse({ type: ok ? "success" : "error", text, autoClose: TOAST_MS.app }));
  const parsed = CallFilters.safeParse(callFiltersBody(form));
  if (!parsed.success) return toast(false, parsed.error.issues[0]!.message);
  try {
    await userCall(context, calls.saveCallFilters, { body: parsed.data });
    return toast(true, messages.callFiltersSaved);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return toast(false, error.status === 422 && error.detail ? error.detail : messages.unexpected);
  }
}
