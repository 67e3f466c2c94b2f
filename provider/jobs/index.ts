/** Scheduled jobs: leader election (one process runs them) and the scheduler; the jobs themselves. */
export { createScheduler, type Job, type Scheduler } from "./scheduler.ts";
export {
  JOBS_LOCK_KEY,
  postgresLeader,
  singleProcessLeader,
  type LeaderElection,
  type PostgresLeaderOptions,
} from "./leader.ts";
export { isDue, recommendationJob, RECOMMENDATION_JOB, type RecommendationJobOptions } from "./recommendation-job.ts";
export { PRICE_JOB, priceRefreshJob, refreshPrices, type PriceJobOptions, type RefreshResult } from "./price-job.ts";
