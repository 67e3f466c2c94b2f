import { routeOffline } from "#app/offline/index.ts";
import { PATHS } from "#app/lib/paths.ts";

/** As the insights list: the network first and waited for. */
export const offline = routeOffline({ path: PATHS.recommendation, screen: "fresh-first" });
