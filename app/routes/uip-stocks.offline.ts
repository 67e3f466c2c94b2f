import { listChange, routeOffline } from "#app/lib/offline-policy.ts";

/** The UIP list's forms, its action's switch and the outbox's names share these intents. */
export const INTENTS = ["alert", "delete", "watchlist", "reorder", "move"] as const;
export type Intent = (typeof INTENTS)[number];

export const offline = routeOffline({
  path: "/uip-stocks",
  screen: "saved",
  queued: { intents: INTENTS, describe: listChange("the UIP list") },
});
