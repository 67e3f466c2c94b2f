/**
 * The trader's own recommendation count per ticker (docs/product.md#states-live): what the live
 * /insights page reads after a burst of top-line updates, whose counts are the default view's.
 * Their saved filters with those in the page's address, as the page's own loader applies them.
 */
import * as calls from "#contract/calls.ts";
import { filtersInUrl, providerQuery } from "#app/lib/trader-filters.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import type { RouterContextProvider } from "react-router";

const PRIVATE = { "Cache-Control": "private, no-store" } as const;

export async function insightsCounts(request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
  requireUser(context);
  const inUrl = filtersInUrl(new URL(request.url).searchParams);
  try {
    const items = await userCall(context, calls.topLineRecommendations, {
      query: inUrl ? providerQuery(inUrl) : undefined,
    });
    const counts = Object.fromEntries(items.map((item) => [item.ticker, item.trade_recommendation_count]));
    return Response.json({ counts }, { headers: PRIVATE });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return Response.json(
      { detail: error.detail ?? error.message },
      { status: error.status >= 400 ? error.status : 503, headers: PRIVATE },
    );
  }
}
