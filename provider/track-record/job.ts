/**
 * The track record's scheduled job (run by the leader, provider/jobs/scheduler.ts): copy the puts
 * recommended since its last run, back-test past sessions once when the market is simulated, and
 * score every pick whose expiry close is final. Each step is idempotent, so a run cut short, a
 * restart or a second process changes nothing that was done.
 */
import type { Db } from "#provider/db/client.ts";
import type { Job } from "#provider/jobs/scheduler.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData } from "#provider/market/port.ts";
import { isSimulatedMarket } from "#provider/market/simulated.ts";
import { backtestOnce } from "./backtest.ts";
import { scoreDueCalls } from "./calls-store.ts";
import { copyShown, scoreDue, type ScoreResult } from "./store.ts";

const TRACK_RECORD_JOB = "track-record";

export interface TrackRecordJobOptions {
  /** Pause between runs; short enough that rows are copied long before old runs could be pruned. */
  intervalMs: number;
  /** Weeks of past sessions the simulated market's back-test replays (one session a week); 0 for none. */
  backtestWeeks?: number | undefined;
  /** The clock (tests pin it to the market's). */
  now?: (() => Date) | undefined;
  /** The first run waits this long, so a back-test does not compete with the process starting up. */
  firstRunDelayMs?: number | undefined;
}

export interface TrackRecordRun {
  copied: number;
  backtested: number;
  scored: number;
  waiting: number;
  /** The suggested covered calls scored this run (docs/decisions/0088). */
  calls: ScoreResult;
}

export async function runTrackRecord(
  context: { db: Db; market: MarketData },
  options: Omit<TrackRecordJobOptions, "intervalMs"> & { signal?: AbortSignal | undefined },
): Promise<TrackRecordRun> {
  // Settled by the market's day (ADR 0091).
  const now = options.now ?? (() => marketNow(context.market));
  const simulated = isSimulatedMarket(context.market);
  const copied = await copyShown(context.db, { simulated });
  const backtested = isSimulatedMarket(context.market)
    ? await backtestOnce(context.db, context.market, {
        weeks: options.backtestWeeks ?? 0,
        now: now(),
        signal: options.signal,
      })
    : 0;
  const { scored, waiting } = await scoreDue(context.db, context.market, now());
  const calls = await scoreDueCalls(context.db, context.market, now());
  return { copied, backtested, scored, waiting, calls };
}

export function trackRecordJob(context: { db: Db; market: MarketData }, options: TrackRecordJobOptions): Job {
  let first = true;
  return {
    name: TRACK_RECORD_JOB,
    intervalMs: options.intervalMs,
    async run(signal) {
      if (first && options.firstRunDelayMs) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.firstRunDelayMs);
          timer.unref();
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (signal.aborted) return;
      }
      first = false;
      const result = await runTrackRecord(context, { ...options, signal });
      if (result.copied || result.backtested || result.scored || result.calls.scored) {
        console.log(
          `[track-record] copied ${result.copied}, back-tested ${result.backtested}, scored ${result.scored}` +
            (result.waiting ? `, ${result.waiting} waiting for a close` : "") +
            `; covered calls scored ${result.calls.scored}` +
            (result.calls.waiting ? `, ${result.calls.waiting} waiting` : ""),
        );
      }
    },
  };
}
