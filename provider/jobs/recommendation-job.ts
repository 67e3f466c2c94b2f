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
