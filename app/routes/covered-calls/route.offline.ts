import { routeOffline } from "#app/offline/index.ts";

/** Calls priced from live quotes are worth little stale: the network is waited for, a saved copy only without one. */
export const offline = routeOffline({ path: "/insights/calls", screen: "fresh-first" });
