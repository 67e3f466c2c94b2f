import type { RoutePattern } from "#app/lib/href.ts";
import { UIP_INTENTS, type UipIntent } from "#app/components/stock-list/intents.ts";
import { listChange, routeOffline } from "#app/offline/index.ts";

/** The UIP list's forms, its action's switch and the outbox's names share these intents. */
export { UIP_INTENTS as INTENTS, type UipIntent as Intent };

export const offline = routeOffline({
  path: "/uip-stocks" satisfies RoutePattern,
  screen: "saved",
  queued: { intents: UIP_INTENTS, describe: listChange("the UIP list") },
});
