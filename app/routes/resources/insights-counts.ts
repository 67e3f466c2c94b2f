import type { Route } from "./+types/insights-counts";
import { insightsCounts } from "#app/server/insights-counts.server.ts";

/** GET /resources/insights-counts?<filters>: `{ counts: { [ticker]: n } }`, the trader's own (docs/product.md#states-live). */
export function loader({ request, context }: Route.LoaderArgs) {
  return insightsCounts(request, context);
}
