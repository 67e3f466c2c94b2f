/**
 * Pruning stored recommendation runs (issue 19 item 6; docs/decisions/0031-bounded-work-per-trader.md).
 * A run (recommendation_runs and, by ON DELETE CASCADE, its trade_recommendations) goes only when
 * nothing can still need it:
 *  - it is older than the kept days (a retired put stays readable by id that long, for links and
 *    notifications that open /recommendation/{id});
 *  - it is not its stock's latest run (the screens' active set, the job's "last run" time, the
 *    landing page's latest session) nor its latest announced run (when a stock was last announced);
 *  - it is not its stock's active set (active_recommendation_runs, ADR 0040), and the track record
 *    has copied every one of its rows (their ids are at or below its copy bookmark): a run not yet
 *    copied is kept whatever its age.
 * Deletes in batches, so one prune never holds a long transaction.
 */
import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";
import { COPIED_THROUGH } from "#provider/track-record/store.ts";

const BATCH = 2000;
const DAY_MS = 24 * 3600 * 1000;

export interface PruneOptions {
  /** Days a replaced run is kept (RECOMMENDATION_RUNS_KEEP_DAYS). */
  keepDays: number;
  now?: Date | undefined;
}

/** Deletes the runs no screen and no track record step needs any more; returns how many went. */
export async function pruneRuns(db: Db, options: PruneOptions): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.keepDays * DAY_MS);
  const announced = sql<boolean>`inputs @> '{"announced": true}'::jsonb`;
  let pruned = 0;
  for (;;) {
    const deleted = await db
      .deleteFrom("recommendation_runs")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("recommendation_runs as r")
          .select("r.id")
          .where("r.created_at", "<", cutoff)
          // A newer run of the same stock exists: this one is not the latest.
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom("recommendation_runs as n")
                .select("n.id")
                .whereRef("n.stock_id", "=", "r.stock_id")
                .where((w) =>
                  w.or([
                    w("n.created_at", ">", w.ref("r.created_at")),
                    w.and([w("n.created_at", "=", w.ref("r.created_at")), w("n.id", ">", w.ref("r.id"))]),
                  ]),
                ),
            ),
          )
          // Not the stock's latest announced run.
          .where((w) =>
            w.or([
              w.not(sql<boolean>`r.inputs @> '{"announced": true}'::jsonb`),
              w.exists(
                w
                  .selectFrom("recommendation_runs as a")
                  .select("a.id")
                  .whereRef("a.stock_id", "=", "r.stock_id")
                  .where(announced)
                  .where((x) => x("a.created_at", ">", x.ref("r.created_at"))),
              ),
            ]),
          )
          // Not a stock's active set (ADR 0040).
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("active_recommendation_runs as a").select("a.run_id").whereRef("a.run_id", "=", "r.id"),
              ),
            ),
          )
          // Every row copied into the track record.
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("trade_recommendations as t")
                  .select("t.id")
                  .whereRef("t.run_id", "=", "r.id")
                  .where(
                    "t.id",
                    ">",
                    sql<number>`coalesce((select value::int from track_record_state where key = ${COPIED_THROUGH}), 0)`,
                  ),
              ),
            ),
          )
          .orderBy("r.id")
          .limit(BATCH),
      )
      .executeTakeFirst();
    const count = Number(deleted.numDeletedRows);
    pruned += count;
    if (count < BATCH) return pruned;
  }
}
