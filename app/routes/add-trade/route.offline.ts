import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline, tickerOf } from "#app/offline/index.ts";
import type { TradeIntent } from "#app/lib/trade-intents.ts";

const INTENTS = ["save-stock", "save-option"] as const satisfies readonly TradeIntent[];

export const offline = routeOffline({
  path: "/add-trade" satisfies RoutePattern,
  screen: "saved",
  queued: {
    intents: INTENTS,
    describe: (fields) => {
      const symbol = tickerOf(fields.get("symbol"));
      return symbol ? `Record a trade of ${symbol}` : "Record a trade";
    },
  },
});
