/**
 * "Save as my defaults" on /insights: the filter form's fields checked with the contract's schema
 * and saved for the signed-in trader (ADR 0022). A refusal keeps the typed values in the URL.
 */
import type { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { TraderFilters } from "#contract/trader-filters.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { INSIGHTS_PATH, insightsSearch } from "#app/lib/insights.ts";
import { FILTER_FIELDS, filtersBody, type FilterForm } from "#app/lib/trader-filters.ts";
import { userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast, Toast } from "#app/server/toast.server.ts";

export const FILTERS_SAVED = "Saved as your default filters";

export async function saveFiltersAction(
  context: Readonly<RouterContextProvider>,
  formData: FormData,
  search: URLSearchParams,
) {
  const form = {} as FilterForm;
  for (const field of FILTER_FIELDS) form[field] = String(formData.getAll(field).at(-1) ?? "");
  // Back to the list with the values just typed in its URL, saved or not.
  const listUrl =
    INSIGHTS_PATH +
    insightsSearch(search, (p) => {
      for (const field of FILTER_FIELDS) p.set(field, form[field]);
    });
  const toast = (ok: boolean, text: string) =>
    redirectWithToast(listUrl, Toast.parse({ type: ok ? "success" : "error", text, autoClose: TOAST_MS.app }));
  const parsed = TraderFilters.safeParse(filtersBody(form));
  if (!parsed.success) return toast(false, parsed.error.issues[0]!.message);
  try {
    await userCall(context, calls.saveTraderFilters, { body: parsed.data });
    return toast(true, FILTERS_SAVED);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return toast(false, error.status === 422 && error.detail ? error.detail : messages.unexpected);
  }
}
