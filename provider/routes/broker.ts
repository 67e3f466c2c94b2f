import * as calls from "#contract/calls.ts";
import type { ProviderContext } from "#provider/context.ts";
import type { Router } from "#provider/http/router.ts";
import { HttpError } from "#provider/http/errors.ts";
import { removeBrokerSnapshot } from "#provider/broker/snapshot-store.ts";
import { chooseAccount, findConnection, removeConnection, toConnection } from "#provider/broker/connection-store.ts";
import { connectTradier, SYNC_TEXT, syncTradier } from "#provider/broker/tradier-sync.ts";

/**
 * The caller's own Tradier connection (issue 43): every call acts on the caller's row only, and no
 * answer carries the token (docs/decisions/0075-broker-tokens-encrypted-at-rest.md). Connecting and
 * syncing reach Tradier, so they count against the trader's imports a minute (ADR 0073).
 */
export function brokerRoutes(router: Router, context: ProviderContext): void {
  const { db, broker } = context;

  router.on(calls.tradierConnection, async ({ caller }) => {
    const stored = await findConnection(db, caller.id);
    return { connection: stored ? toConnection(stored) : null };
  });

  router.on(calls.connectTradier, async ({ caller, body }) => {
    await context.limiter.hit(context.work.brokerFile, String(caller.id));
    return { connection: toConnection(await connectTradier(db, broker, caller.id, body.token)) };
  });

  router.on(calls.tradierAccount, async ({ caller, body }) => {
    const stored = await findConnection(db, caller.id);
    if (!stored) throw new HttpError(404, SYNC_TEXT.notConnected);
    if (!stored.accounts.some((a) => a.number === body.account)) {
      throw new HttpError(422, "That is not one of this token's Tradier accounts");
    }
    const chosen = await chooseAccount(db, caller.id, body.account);
    if (!chosen) throw new HttpError(404, SYNC_TEXT.notConnected);
    return { connection: toConnection(chosen) };
  });

  router.on(calls.syncTradier, async ({ caller }) => {
    await context.limiter.hit(context.work.brokerFile, String(caller.id));
    return syncTradier(db, broker, caller.id);
  });

  router.on(calls.disconnectTradier, async ({ caller }) => {
    await removeConnection(db, caller.id);
    // What Tradier said the trader holds goes with the connection: it would only grow stale.
    await removeBrokerSnapshot(db, caller.id, "tradier");
    return { connection: null };
  });
}
