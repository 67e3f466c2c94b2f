import type { Route } from "./+types/stock-history.$ticker";
import * as calls from "#contract/calls.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";

/** About a year of trading days (the provider counts Monday to Friday) for the daily chart (docs/product.md#constants-display). */
const DAYS = 260;

/**
 * GET /resources/stock-history/{ticker}: the daily closes for a row's chart, `[{ time, value }]`,
 * from the provider's daily history. The browser never talks to the provider itself.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const ticker = sanitizeTicker(params.ticker);
  if (!ticker) return Response.json({ detail: "Ticker is required" }, { status: 400 });
  try {
    const bars = await userCall(context, calls.stockHistory, { params: { ticker }, query: { days: DAYS } });
    return Response.json(
      bars.map((bar) => ({ time: bar.time, value: bar.close })),
      // Daily bars change slowly; a few minutes in the browser's cache spares repeat expansions.
      { headers: { "cache-control": "private, max-age=300" } },
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const status = error.status === 404 ? 404 : error.status >= 400 ? error.status : 503;
    const detail = error.status === 404 ? `No price history for ${ticker}.` : (error.detail ?? error.message);
    return Response.json({ detail }, { status });
  }
}
