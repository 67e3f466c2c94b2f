import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

/** The expanded row's price chart: kept with the list that shows it. */
export const offline = routeOffline({
  path: "/resources/stock-history/:ticker" satisfies RoutePattern,
  screen: "saved",
});
