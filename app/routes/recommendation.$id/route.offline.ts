import { routeOffline } from "#app/offline/index.ts";

/** As the insights list: the network first and waited for. */
export const offline = routeOffline({ path: "/recommendation/:id", screen: "fresh-first" });
