import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

/** As the insights list: the network first and waited for. */
export const offline = routeOffline({ path: "/recommendation/:id" satisfies RoutePattern, screen: "fresh-first" });
