/**
 * Automatic generation (docs/product.md#entities-config): while the admin
 * switch is on, the leader regenerates every ticker some user flagged for recommendations once its
 * last run is `intervalMs` old. Due-ness comes from the stored runs, so a new leader carries on
 * where the old one stopped instead of regenerating everything at once. With the market closed a
 * ticker whose last run already saw the last close is left alone: nothing has changed.
 */
import { sessionAt, isMarketOpen } from "#provider/market/calendar.ts";
import { generateMany, type RecommendContext } from "#provider/recommend/generate.ts";
import { configFlag } from "#provider/store/config-flag.ts";
import { isFlagged } from "#provider/store/followed-stocks.ts";
import type { Job } from "./scheduler.ts";
import { claimPartitions, completePartition, LeaseLost, releasePartitions, syncPartitions } from "./partitions.ts";

export const RECOMMENDATION_JOB = "recommendations";

export interface RecommendationJobOptions {
  /** Age at which a ticker's recommendations are regenerated. */
  intervalMs: number;
  /** How often the job looks for due tickers (and at the switch); at most intervalMs. */
  checkEveryMs?: number | undefined;
  /** The clock (tests pin it). */
  now?: (() => Date) | undefined;
}

/** Tickers flagged by any user's active watchlist row, with their latest run's time. */
async function flaggedTickers(context: RecommendContext) {
  const rows = await context.db
    .selectFrom("stocks as s")
    .select((eb) => [
      "s.ticker",
      eb
        .selectFrom("recommendation_runs as r")
        .whereRef("r.stock_id", "=", "s.id")
        .select(({ fn }) => fn.max("r.created_at").as("last"))
        .as("last_run"),
    ])
    .where(isFlagged)
    .orderBy("s.ticker")
    .execute();
  return rows.map((r) => ({ ticker: r.ticker, lastRun: r.last_run ? new Date(r.last_run as Date | string) : null }));
}

/** Whether a ticker last generated at `lastRun` should be generated again at `now`. */
export function isDue(lastRun: Date | null, now: Date, intervalMs: number): boolean {
  if (!lastRun) return true;
  if (now.getTime() - lastRun.getTime() < intervalMs) return false;
  return isMarketOpen(now) || lastRun.getTime() < sessionAt(now).asOf.getTime();
}

export function recommendationJob(context: RecommendContext, options: RecommendationJobOptions): Job {
  const now = options.now ?? (() => new Date());
  return {
    name: RECOMMENDATION_JOB,
    intervalMs: Math.min(options.checkEveryMs ?? 60_000, options.intervalMs),
    async run(signal) {
      if (!(await configFlag(context.db, "auto_trade_recommendation_generation_enabled"))) return;
      const due = (await flaggedTickers(context))
        .filter(({ lastRun }) => isDue(lastRun, now(), options.intervalMs))
        .map(({ ticker }) => ticker);
      for (const { ticker, error } of await generateMany(context, due, { trigger: "schedule", signal })) {
        if (error) console.error(`[jobs] recommendations for ${ticker} failed: ${error.message}`);
      }
    },
  };
}

export interface PartitionedRecommendationOptions extends RecommendationJobOptions {
  /** This process's name on its claims (unique among the processes). */
  owner: string;
  /** Tickers claimed at once. */
  batch?: number | undefined;
  /** How long a claim is held before another process may take it over; longer than a generation. */
  leaseMs?: number | undefined;
}

/**
 * Automatic generation on a PostgreSQL server, run by every process (ADR 0085): each claims a few
 * flagged stocks at a time, asks the stored runs again whether they are due (a run another process
 * committed before this claim counts), generates those, and hands the claims back. A process that
 * dies mid-generation leaves no run (its transaction rolls back) and a claim that expires.
 */
export function partitionedRecommendationJob(
  context: RecommendContext,
  options: PartitionedRecommendationOptions,
): Job {
  const now = options.now ?? (() => new Date());
  const checkEveryMs = Math.min(options.checkEveryMs ?? 60_000, options.intervalMs);
  const { owner } = options;
  const batch = options.batch ?? 4;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const job = "recommendations" as const;
  return {
    name: RECOMMENDATION_JOB,
    everyProcess: true,
    intervalMs: checkEveryMs,
    async run(signal) {
      const { db } = context;
      if (!(await configFlag(db, "auto_trade_recommendation_generation_enabled"))) return;
      // Once per check (a minute by default), like the single-process job's list of flagged tickers.
      await syncPartitions(db, job, isFlagged);
      try {
        while (!signal.aborted) {
          const claims = await claimPartitions(db, { job, owner, limit: batch, leaseMs });
          if (!claims.length) break;
          const last = await db
            .selectFrom("recommendation_runs")
            .select(({ fn }) => ["stock_id", fn.max("created_at").as("last")])
            .where(
              "stock_id",
              "in",
              claims.map((c) => c.stockId),
            )
            .groupBy("stock_id")
            .execute();
          const lastOf = new Map(last.map((r) => [r.stock_id, new Date(r.last as Date | string)]));
          const due = claims.filter((c) => isDue(lastOf.get(c.stockId) ?? null, now(), options.intervalMs));
          const outcomes = new Map(
            (
              await generateMany(
                context,
                due.map((c) => c.ticker),
                { trigger: "schedule", signal },
              )
            ).map((o) => [o.ticker, o]),
          );
          if (signal.aborted) break;
          for (const claim of claims) {
            const outcome = outcomes.get(claim.ticker);
            if (outcome?.error)
              console.error(`[jobs] recommendations for ${claim.ticker} failed: ${outcome.error.message}`);
            await completePartition(db, {
              job,
              owner,
              stockId: claim.stockId,
              intervalMs: checkEveryMs,
              done: Boolean(outcome && !outcome.error),
            }).catch((error: unknown) => {
              if (!(error instanceof LeaseLost)) throw error;
            });
          }
        }
      } finally {
        if (signal.aborted) await releasePartitions(db, { job, owner }).catch(() => {});
      }
    },
  };
}
