import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

/** One form, no intent (deleting from this screen posts to the list, /uip-stocks). */
export const offline = routeOffline({
  path: "/uip-stock/:ticker" satisfies RoutePattern,
  screen: "saved",
  queued: {
    intents: [],
    describe: (_fields, { ticker = "" }) => `Changes to ${ticker.toUpperCase()} in the UIP list`,
  },
});
