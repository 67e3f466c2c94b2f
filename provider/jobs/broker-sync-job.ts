/**
 * The daily Tradier sync (issue 43; docs/decisions/0093-tradier-sync-through-the-import.md): every
 * hour the leader looks for connected accounts last synced a day ago or more and syncs them one
 * after another, a bounded number a run. Each sync claims its trader's row first, so a sync the
 * trader started, or another process, never runs beside it; one that fails keeps its sentence for
 * the trader's screen and the run goes on with the next.
 */
import type { Db } from "#provider/db/client.ts";
import { dueForSync } from "#provider/broker/connection-store.ts";
import type { BrokerSettings } from "#provider/broker/settings.ts";
import { syncTradier } from "#provider/broker/tradier-sync.ts";
import { HttpError } from "#provider/http/errors.ts";
import type { Job } from "./scheduler.ts";

export const BROKER_SYNC_JOB = "broker-sync";
export const BROKER_SYNC_INTERVAL_MS = 3600_000;
/** A connection is synced again once its last sync is this old. */
const SYNC_EVERY_MS = 24 * 3600_000;
/** Accounts one run syncs at most; the rest wait for the next hour. */
const SYNCS_PER_RUN = 50;

export function brokerSyncJob(
  context: { db: Db; broker: BrokerSettings },
  options: { intervalMs: number; now?: (() => Date) | undefined },
): Job {
  return {
    name: BROKER_SYNC_JOB,
    intervalMs: options.intervalMs,
    async run(signal) {
      const now = options.now?.() ?? new Date();
      const due = await dueForSync(context.db, new Date(now.getTime() - SYNC_EVERY_MS), SYNCS_PER_RUN);
      for (const userId of due) {
        if (signal.aborted) return;
        try {
          await syncTradier(context.db, context.broker, userId, options.now?.() ?? new Date());
        } catch (error) {
          // Kept on the connection for the trader (finishSync); a claimed row is another sync's.
          if (!(error instanceof HttpError)) console.error(`[broker-sync] trader ${userId}:`, error);
        }
      }
    },
  };
}
