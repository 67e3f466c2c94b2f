import { routeOffline } from "#app/lib/offline-policy.ts";

/** Recommendations are worth little stale: the network is waited for, a saved copy only without one. */
export const offline = routeOffline({ path: "/insights", screen: "fresh-first" });
