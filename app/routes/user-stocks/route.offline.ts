import type { RoutePattern } from "#app/lib/href.ts";
import { WATCHLIST_INTENTS, type WatchlistIntent } from "#app/components/stock-list/intents.ts";
import { listChange, routeOffline } from "#app/offline/index.ts";

/** The watchlist's forms, its action's switch and the outbox's names share these intents. */
export { WATCHLIST_INTENTS as INTENTS, type WatchlistIntent as Intent };

export const offline = routeOffline({
  path: "/user-stocks" satisfies RoutePattern,
  screen: "saved",
  queued: { intents: WATCHLIST_INTENTS, describe: listChange("the watchlist") },
});
