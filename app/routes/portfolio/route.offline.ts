import type { RoutePattern } from "#app/lib/href.ts";
import { routeOffline } from "#app/offline/index.ts";

export const offline = routeOffline({ path: "/portfolio" satisfies RoutePattern, screen: "saved" });
