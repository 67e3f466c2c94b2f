import * as calls from "#contract/calls.ts";
import type { ProviderContext } from "#provider/context.ts";
import type { Router } from "#provider/http/router.ts";
import { applyFix, reconciliationOf } from "#provider/broker/reconciliation.ts";

/** The caller's journal against the caller's own broker snapshots (ADR 0094); input checked by the contract. */
export function reconciliationRoutes(router: Router, context: ProviderContext): void {
  const { db } = context;
  router.on(calls.reconciliation, async ({ caller, query }) => reconciliationOf(db, caller.id, query.source));
  router.on(calls.fixReconciliation, async ({ caller, body }) => applyFix(db, caller.id, body));
}
