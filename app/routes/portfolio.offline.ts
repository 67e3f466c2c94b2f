import { routeOffline } from "#app/lib/offline-policy.ts";

export const offline = routeOffline({ path: "/portfolio", screen: "saved" });
