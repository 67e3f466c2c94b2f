import type { RoutePattern } from "#app/lib/href.ts";
import { ADD_STOCK_INTENTS, type AddStockIntent } from "#app/components/stock-list/intents.ts";
import { routeOffline, tickerOf } from "#app/offline/index.ts";

/** Look the company up (no JavaScript), or add the stock. */
export { ADD_STOCK_INTENTS as INTENTS, type AddStockIntent as Intent };

export const offline = routeOffline({
  path: "/add-user-stock" satisfies RoutePattern,
  screen: "saved",
  queued: {
    intents: ADD_STOCK_INTENTS,
    describe: (fields) => {
      const ticker = tickerOf(fields.get("ticker"));
      return ticker ? `Add ${ticker} to the watchlist` : "Add a stock to the watchlist";
    },
  },
});
