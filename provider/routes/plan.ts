import * as calls from "#contract/calls.ts";
import type { ProviderContext } from "#provider/context.ts";
import type { Router } from "#provider/http/router.ts";
import { bestPutsFor, fitsOf, planOf } from "#provider/plan/book.ts";
import { saveCapitalSettings, savedCapitalSettings, saveSectorOverride } from "#provider/plan/store.ts";

/** The caller's own book (ADR 0081): settings, plan, fits and best puts; the router has checked input with the contract. */
export function planRoutes(router: Router, context: ProviderContext): void {
  const { db, market } = context;
  router.on(calls.capitalSettings, async ({ caller }) => savedCapitalSettings(db, caller.id));
  router.on(calls.saveCapitalSettings, async ({ caller, body }) => saveCapitalSettings(db, caller.id, body));
  // Open legs and days left on the market's clock (ADR 0091).
  router.on(calls.plan, async ({ caller, query }) =>
    planOf(db, market, caller.id, query.move, context.now().getTime()),
  );
  router.on(calls.planFits, async ({ caller, query }) =>
    fitsOf(db, market, caller.id, query.ids, context.now().getTime()),
  );
  router.on(calls.bestPuts, async ({ caller }) => bestPutsFor(db, market, caller.id, context.now().getTime()));
  router.on(calls.saveSectorOverride, async ({ caller, params, body }) => {
    await saveSectorOverride(db, caller.id, params.ticker, body.sector);
    return { ticker: params.ticker, sector: body.sector };
  });
}
