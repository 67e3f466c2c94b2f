import { data, redirect, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { messages } from "#app/lib/messages.ts";
import {
  INSIGHTS_PARAM as PARAM,
  INSIGHTS_PATH,
  insightsSearch,
  openTicker,
  SEARCH_MAX,
  shownCards,
} from "#app/lib/insights.ts";
import { filtersInUrl, formOf, providerQuery, type FilterForm } from "#app/lib/trader-filters.ts";
import { userCall } from "#app/server/auth.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { loadPlanFits } from "#app/server/plan-fit.server.ts";

/** Entering /insights always shows fresh recommendations: no cache may keep a copy (docs/product.md#screens-insights, docs/architecture.md#browser-state). */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

/**
 * The Recommendations list (docs/product.md#screens-insights), the layout of /insights and of the option detail
 * (/recommendation/{id}), which opens over it. Loads the top line and the expanded stock's
 * options, each with its own docs/product.md#states-data failure text.
 */
export async function loadInsights(request: Request, context: Readonly<RouterContextProvider>) {
  const url = new URL(request.url);
  // The search form without JavaScript sends empty fields too: keep the address clean and shareable.
  if (url.pathname === INSIGHTS_PATH && Object.values(PARAM).some((name) => url.searchParams.get(name) === "")) {
    throw redirect(INSIGHTS_PATH + insightsSearch(url.searchParams), { headers: NO_STORE });
  }
  const open = openTicker(url.searchParams.get(PARAM.open));
  // A page of the list (ADR 0102), searched by the provider so a stock past the page is found too.
  const shown = shownCards(url.searchParams.get(PARAM.shown));
  const search = (url.searchParams.get(PARAM.query) ?? "").trim().slice(0, SEARCH_MAX);
  const topLinePage = (filters: Record<string, string> | undefined, only?: string) =>
    userCall(context, calls.topLineRecommendationsPage, {
      query: { ...filters, limit: String(shown), ...(search ? { q: search } : {}), ...(only ? { ticker: only } : {}) },
    });
  // The trader's filters: the URL's (the filter form), else their saved ones, which the provider applies.
  const inUrl = filtersInUrl(url.searchParams);
  let query = inUrl ? providerQuery(inUrl) : undefined;
  let filtersError: string | null = null;
  // With the provider out of reach the screen still renders and says so (the lists below fail the same way).
  const saved = await userCall(context, calls.traderFilters).catch((error: unknown) => {
    if (!(error instanceof ProviderError)) throw error;
    return null;
  });
  let checked: Awaited<ReturnType<typeof topLinePage>> | null = null;
  if (query) {
    try {
      checked = await topLinePage(query);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.status !== 422) throw error;
      // Filters the provider refuses: say why, and show the list with the saved ones.
      filtersError = error.detail ?? messages.unexpected;
      query = undefined;
    }
  }

  const [top, options] = await Promise.all([
    (checked ? Promise.resolve(checked) : topLinePage(query)).then(
      (page) => ({ ...page, error: null }),
      (error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
        return { items: [], total: 0, error: messages.fetchTopLineFailed };
      },
    ),
    open
      ? // Every put that passes, so "Show all" needs no second request (issue 46).
        userCall(context, calls.tradeRecommendations, { params: { symbol: open }, query: { ...query, all: "1" } }).then(
          (items) => ({ items, error: null }),
          (error: unknown) => {
            if (!(error instanceof ProviderError)) throw error;
            // A ticker the provider does not know has no recommendations; that is not a failure.
            if (error.status === 404) return { items: [] as TradeRecommendation[], error: null };
            return { items: null, error: messages.fetchRecommendationsFailed };
          },
        )
      : { items: null, error: null },
  ]);

  const [plan, pinned] = await Promise.all([
    // Whether each of the open stock's puts fits the trader's plan (ADR 0081).
    options.items
      ? loadPlanFits(
          context,
          options.items.map((o) => o.id),
        )
      : null,
    // The expanded stock's card when the page does not hold it (a generation, an option opened from a
    // link): shown first, if the search matches it.
    open && top.items.length < top.total && !top.items.some((item) => item.ticker === open)
      ? topLinePage(query, open).then(
          (page) => page.items[0] ?? null,
          (error: unknown) => {
            if (!(error instanceof ProviderError)) throw error;
            return null;
          },
        )
      : null,
  ]);

  return data(
    {
      plan,
      topLine: top.items,
      page: { total: top.total, query: search, pinned },
      shown,
      topLineError: top.error,
      open,
      options: options.items,
      optionsError: options.error,
      filters: { ...(saved ? formOf(saved) : {}), ...(filtersError ? {} : inUrl) } as FilterForm,
      filtersError,
      logoTemplate: appEnv().LOGO_URL_TEMPLATE || null,
      now: Date.now(),
    },
    { headers: NO_STORE },
  );
}
