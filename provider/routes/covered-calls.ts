import * as calls from "#contract/calls.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { coveredCallScreen } from "#provider/recommend/covered-call-screen.ts";
import { saveCallFilters, savedCallFilters } from "#provider/recommend/covered-calls-store.ts";

/** The covered-call screen and the caller's call filters (docs/decisions/0079): the caller's own only. */
export function coveredCallRoutes(router: Router, context: ProviderContext): void {
  const { db, market } = context;
  // Days to expiry from the market's today (ADR 0091).
  router.on(calls.coveredCalls, async ({ caller, query }) =>
    coveredCallScreen(db, market, caller.id, query, context.now().getTime()),
  );
  router.on(calls.callFilters, async ({ caller }) => savedCallFilters(db, caller.id));
  router.on(calls.saveCallFilters, async ({ caller, body }) => saveCallFilters(db, caller.id, body));
}
