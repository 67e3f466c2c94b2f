import type { ProviderContext } from "#provider/context.ts";
import { notifyNewRecommendations } from "#provider/push/alerts.ts";
import type { RecommendContext } from "./generate.ts";

/** The engine's view of the provider: its store, market data, bus, and the new-recommendations alert. */
export function recommendContext(context: ProviderContext): RecommendContext {
  return {
    db: context.db,
    market: context.market,
    bus: context.bus,
    // The one place generation notifies the users who flagged the ticker (type trade, /insights).
    announce: ({ stockId, fresh }) => notifyNewRecommendations(context, { stockId, count: fresh }),
  };
}
