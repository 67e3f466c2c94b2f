import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

/** One form, no intent (deleting from this screen posts to the list, /user-stocks). */
export const offline = routeOffline({
  path: "/user-stock/:ticker" satisfies RoutePattern,
  screen: "saved",
  queued: { intents: [], describe: (_fields, { ticker = "" }) => `Changes to ${ticker.toUpperCase()}` },
});
