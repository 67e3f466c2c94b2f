import { listChange, routeOffline } from "#app/lib/offline-policy.ts";

/** The watchlist's forms, its action's switch and the outbox's names share these intents. */
export const INTENTS = ["toggle", "delete", "reorder", "move"] as const;
export type Intent = (typeof INTENTS)[number];

export const offline = routeOffline({
  path: "/user-stocks",
  screen: "saved",
  queued: { intents: INTENTS, describe: listChange("the watchlist") },
});
