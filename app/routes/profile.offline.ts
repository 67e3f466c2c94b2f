import { routeOffline } from "#app/offline/index.ts";
import { PATHS } from "#app/lib/paths.ts";

/** Read from a saved copy offline; its settings are sent or refused, never kept for later. */
export const offline = routeOffline({ path: PATHS.profile, screen: "saved" });
