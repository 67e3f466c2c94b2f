import { routeOffline } from "#app/offline/index.ts";
import { PATHS } from "#app/lib/paths.ts";

export const offline = routeOffline({ path: PATHS.portfolio, screen: "saved" });
