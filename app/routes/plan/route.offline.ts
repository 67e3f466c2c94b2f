import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

/**
 * The Plan offline (ADR 0041): read from a saved copy; a sector sent without a network is refused,
 * never kept for later (its figures would be stale by then). Named route.offline.ts, beside
 * route.tsx, so the worker's glob of `*.offline.ts` finds a folder screen's policy too.
 */
export const offline = routeOffline({ path: "/plan" satisfies RoutePattern, screen: "saved" });
