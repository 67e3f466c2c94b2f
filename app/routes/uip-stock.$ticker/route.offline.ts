import { routeOffline } from "#app/offline/index.ts";
import { PATHS } from "#app/lib/paths.ts";

/** One form, no intent (deleting from this screen posts to the list, /uip-stocks). */
export const offline = routeOffline({
  path: PATHS.uipStock,
  screen: "saved",
  queued: {
    intents: [],
    describe: (_fields, { ticker = "" }) => `Changes to ${ticker.toUpperCase()} in the UIP list`,
  },
});
