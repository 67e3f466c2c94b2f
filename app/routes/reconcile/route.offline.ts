import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

/**
 * Reconcile offline (ADR 0041): read from a saved copy; a fix sent without a network is refused,
 * never kept for later (the difference it answers may be gone by then, ADR 0094).
 */
export const offline = routeOffline({ path: "/reconcile" satisfies RoutePattern, screen: "saved" });
