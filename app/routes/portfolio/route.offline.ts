import { routeOffline } from "#app/offline/index.ts";

export const offline = routeOffline({ path: "/portfolio", screen: "saved" });
