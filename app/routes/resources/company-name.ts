import type { Route } from "./+types/company-name";
import * as calls from "#contract/calls.ts";
import { companyNameOf } from "#app/lib/stock-fields.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";

/**
 * GET /resources/company-name?ticker=…: the read-only Stock Name of the add forms (docs/product.md#validation-stock),
 * `{ name }`, or 404 `{ detail }` for a ticker the market does not know.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const ticker = sanitizeTicker(new URL(request.url).searchParams.get("ticker") ?? "");
  if (!ticker) return Response.json({ detail: "Ticker is required" }, { status: 400 });
  try {
    const answer = await userCall(context, calls.companyName, { query: { ticker } });
    return Response.json(
      { ticker, name: companyNameOf(answer) },
      { headers: { "cache-control": "private, max-age=3600" } },
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.status === 404) return Response.json({ ticker, detail: `Unknown ticker: ${ticker}` }, { status: 404 });
    return Response.json(
      { ticker, detail: error.detail ?? error.message },
      { status: error.status >= 400 ? error.status : 503 },
    );
  }
}
