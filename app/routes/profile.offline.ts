import { routeOffline } from "#app/lib/offline-policy.ts";

/** Read from a saved copy offline; its settings are sent or refused, never kept for later. */
export const offline = routeOffline({ path: "/profile", screen: "saved" });
