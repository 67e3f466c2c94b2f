/**
 * Prunes stored recommendation runs (recommend/prune.ts) from the leader's scheduler, once an
 * hour: runs pile up at one per flagged ticker every interval, and the screens and the track
 * record need only a few of them (docs/decisions/0031-bounded-work-per-trader.md).
 */
import type { Db } from "#provider/db/client.ts";
import { pruneRuns } from "#provider/recommend/prune.ts";
import type { Job } from "./scheduler.ts";

export const PRUNE_RUNS_JOB = "prune-recommendation-runs";

export function pruneRunsJob(
  context: { db: Db },
  options: { intervalMs: number; keepDays: number; now?: (() => Date) | undefined },
): Job {
  return {
    name: PRUNE_RUNS_JOB,
    intervalMs: options.intervalMs,
    async run() {
      const pruned = await pruneRuns(context.db, { keepDays: options.keepDays, now: options.now?.() });
      if (pruned) console.log(`[prune] ${pruned} old recommendation runs pruned`);
    },
  };
}
