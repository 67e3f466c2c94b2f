import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

/** Read from a saved copy offline; its settings are sent or refused, never kept for later. */
export const offline = routeOffline({ path: "/profile" satisfies RoutePattern, screen: "saved" });
