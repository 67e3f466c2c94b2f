import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

/** Recommendations are worth little stale: the network is waited for, a saved copy only without one. */
export const offline = routeOffline({ path: "/insights" satisfies RoutePattern, screen: "fresh-first" });
