import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

/**
 * The broker screen offline (ADR 0041): not kept, and nothing it posts waits in the outbox — a
 * token typed without a network must not sit in the browser's storage, and a sync needs Tradier.
 */
export const offline = routeOffline({ path: "/broker" satisfies RoutePattern, screen: "network" });
