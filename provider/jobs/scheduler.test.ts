import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { TradeUpdate } from "#contract/ws.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { TRADE_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import { recommendContext } from "#provider/recommend/context.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import type { LeaderElection } from "./leader.ts";
import { createScheduler, type Job } from "./scheduler.ts";
import { isDue, recommendationJob, RECOMMENDATION_JOB } from "./recommendation-job.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(5);
  }
}

/** An election the test decides. */
function manualElection() {
  let callback: (leader: boolean) => void = () => {};
  let leader = false;
  const election: LeaderElection & { set(value: boolean): void } = {
    get isLeader() {
      return leader;
    },
    start(onChange) {
      callback = onChange;
    },
    async stop() {
      election.set(false);
    },
    set(value) {
      if (value === leader) return;
      leader = value;
      callback(value);
    },
  };
  return election;
}

/** A job that records its runs; each run takes `busyMs`. */
function recordingJob(name: string, intervalMs: number, busyMs = 0) {
  const log = { starts: 0, ends: 0, overlaps: 0, aborted: 0, running: 0 };
  const job: Job = {
    name,
    intervalMs,
    async run(signal) {
      log.starts++;
      if (log.running > 0) log.overlaps++;
      log.running++;
      await sleep(busyMs);
      if (signal.aborted) log.aborted++;
      log.running--;
      log.ends++;
    },
  };
  return { job, log };
}

describe("scheduler", () => {
  it("runs nothing until this process leads, then each job at once and every interval", async () => {
    const election = manualElection();
    const scheduler = createScheduler(election);
    const { job, log } = recordingJob("tick", 20);
    scheduler.register(job);
    scheduler.start();
    await sleep(60);
    expect(log.starts).toBe(0);
    election.set(true);
    await until(() => log.starts >= 1);
    await sleep(110);
    expect(log.starts).toBeGreaterThanOrEqual(3);
    await scheduler.stop();
  });

  it("never overlaps runs of one job, and runNow waits for the run under way", async () => {
    const election = manualElection();
    const scheduler = createScheduler(election);
    const { job, log } = recordingJob("slow", 1, 30);
    scheduler.register(job);
    scheduler.start();
    election.set(true);
    await until(() => log.starts >= 1);
    await scheduler.runNow("slow");
    await sleep(100);
    expect(log.overlaps).toBe(0);
    expect(log.starts).toBeGreaterThanOrEqual(3);
    await scheduler.stop();
  });

  it("stops the jobs when leadership is lost, aborting the run under way, and resumes when regained", async () => {
    const election = manualElection();
    const scheduler = createScheduler(election);
    const { job, log } = recordingJob("lease", 10, 40);
    scheduler.register(job);
    scheduler.start();
    election.set(true);
    await until(() => log.running === 1);
    election.set(false);
    await until(() => log.ends === 1);
    expect(log.aborted).toBe(1);
    const startsWhileFollowing = log.starts;
    await sleep(100);
    expect(log.starts).toBe(startsWhileFollowing);
    election.set(true);
    await until(() => log.starts > startsWhileFollowing);
    await scheduler.stop();
    expect(log.running).toBe(0);
  });

  it("starts a job registered while leading (another issue's price refresh, say), and refuses duplicate names", async () => {
    const election = manualElection();
    const scheduler = createScheduler(election);
    scheduler.start();
    election.set(true);
    await scheduler.whenLeader();
    const { job, log } = recordingJob("late", 1000);
    scheduler.register(job);
    await until(() => log.starts === 1);
    expect(() => scheduler.register(job)).toThrow(/late is registered already/);
    await scheduler.stop();
  });

  it("runs a job marked everyProcess from start to stop whether this process leads or not (ADR 0085)", async () => {
    const election = manualElection();
    const scheduler = createScheduler(election);
    const shared = recordingJob("shared", 10);
    const leaderOnly = recordingJob("leader-only", 10);
    scheduler.register({ ...shared.job, everyProcess: true });
    scheduler.register(leaderOnly.job);
    await sleep(30);
    expect(shared.log.starts).toBe(0);
    scheduler.start();
    await until(() => shared.log.starts >= 2);
    expect(leaderOnly.log.starts).toBe(0);
    election.set(true);
    await until(() => leaderOnly.log.starts >= 1);
    election.set(false);
    const sharedRuns = shared.log.starts;
    await until(() => shared.log.starts > sharedRuns + 1);
    await scheduler.stop();
    const stopped = shared.log.starts;
    await sleep(60);
    expect(shared.log.starts).toBe(stopped);
  });

  it("keeps running after a job throws", async () => {
    const election = manualElection();
    const scheduler = createScheduler(election);
    let runs = 0;
    const errors = console.error;
    console.error = () => {};
    try {
      scheduler.register({
        name: "flaky",
        intervalMs: 5,
        async run() {
          runs++;
          throw new Error("vendor down");
        },
      });
      scheduler.start();
      election.set(true);
      await until(() => runs >= 3);
    } finally {
      await scheduler.stop();
      console.error = errors;
    }
  });
});

describe("automatic generation: when a ticker is due", () => {
  const MIN = 60_000;
  // Wednesday 2026-11-18 12:00 New York (open); Saturday 2026-11-21 10:00; Friday 2026-11-20 14:00 and 17:00.
  const wedNoon = new Date("2026-11-18T17:00:00Z");
  const satMorning = new Date("2026-11-21T15:00:00Z");
  const friAfternoon = new Date("2026-11-20T19:00:00Z");
  const friEvening = new Date("2026-11-20T22:00:00Z");

  it("is due with no run yet, and while open once the last run is an interval old", () => {
    expect(isDue(null, wedNoon, 15 * MIN)).toBe(true);
    expect(isDue(new Date(wedNoon.getTime() - 14 * MIN), wedNoon, 15 * MIN)).toBe(false);
    expect(isDue(new Date(wedNoon.getTime() - 15 * MIN), wedNoon, 15 * MIN)).toBe(true);
  });

  it("with the market closed, only when the last run came before the last close", () => {
    expect(isDue(friAfternoon, satMorning, 15 * MIN)).toBe(true);
    expect(isDue(friEvening, satMorning, 15 * MIN)).toBe(false);
  });
});

describe("automatic generation job", () => {
  const NOW = new Date("2026-11-18T17:00:00Z");
  let provider: TestProvider;
  let adminToken: string;
  beforeAll(async () => {
    provider = await testProvider({
      market: createSimulatedMarket({ seed: 5, tickers: DEMO_TICKERS, now: () => NOW }),
    });
    adminToken = await provider.login("admin", "admin1234");
  });
  afterAll(() => provider.close());

  const runs = () =>
    provider.context.db
      .selectFrom("recommendation_runs as r")
      .innerJoin("stocks as s", "s.id", "r.stock_id")
      .select(["s.ticker", "r.inputs"])
      .orderBy("r.id")
      .execute();

  it("does nothing while the admin switch is off", async () => {
    const job = recommendationJob(recommendContext(provider.context), { intervalMs: 15 * 60_000 });
    await job.run(new AbortController().signal);
    expect(await runs()).toEqual([]);
  });

  it("when on, regenerates every flagged ticker once, publishing each set, and not again until due", async () => {
    const on = await provider.call(calls.setConfig, {
      token: adminToken,
      params: { key: "auto_trade_recommendation_generation_enabled" },
      body: { value: "1" },
    });
    expect(on.status).toBe(200);
    const flagged = await provider.context.db
      .selectFrom("user_stocks as us")
      .innerJoin("stocks as s", "s.id", "us.stock_id")
      .select("s.ticker")
      .distinct()
      .where("us.generate_recommendation", "=", true)
      .orderBy("s.ticker")
      .execute();
    expect(flagged.length).toBeGreaterThan(1);

    const seen: TradeUpdate[] = [];
    const stop = await provider.context.bus.subscribe(
      TRADE_UPDATES_CHANNEL,
      (m) => void seen.push(TradeUpdate.parse(m)),
    );
    const job = recommendationJob(recommendContext(provider.context), { intervalMs: 15 * 60_000 });
    await job.run(new AbortController().signal);
    const stored = await runs();
    // A few tickers at a time, so in any order; each exactly once.
    expect(stored.map((r) => r.ticker).sort()).toEqual(flagged.map((f) => f.ticker));
    for (const run of stored) expect(run.inputs).toMatchObject({ trigger: "schedule" });
    // Without a caller: the UIP row's levels where there is one, else the flagging watchlists' median.
    const sourceOf = (ticker: string) =>
      (stored.find((r) => r.ticker === ticker)!.inputs as { levels_source: string }).levels_source;
    expect(sourceOf("AAPL")).toBe("uip");
    expect(sourceOf("JPM")).toBe("watchlists");
    const jpm = await provider.context.db
      .selectFrom("user_stocks as us")
      .innerJoin("stocks as s", "s.id", "us.stock_id")
      .select(["us.buy_level_one", "us.buy_level_two"])
      .where("s.ticker", "=", "JPM")
      .where("us.generate_recommendation", "=", true)
      .execute();
    const levelOne = jpm.map((r) => r.buy_level_one).sort((a, b) => a - b);
    const median =
      levelOne.length % 2
        ? levelOne[(levelOne.length - 1) / 2]
        : (levelOne[levelOne.length / 2 - 1]! + levelOne[levelOne.length / 2]!) / 2;
    expect(
      (stored.find((r) => r.ticker === "JPM")!.inputs as { levels: { buy_level_one: number } }).levels.buy_level_one,
    ).toBe(median);
    await until(() => seen.length === 2 * flagged.length);
    expect(
      seen
        .filter((u) => u.type === "trade_recommendations_top_line_update")
        .map((u) => u.ticker)
        .sort(),
    ).toEqual(flagged.map((f) => f.ticker));
    await stop();

    await job.run(new AbortController().signal);
    expect(await runs()).toHaveLength(flagged.length);
  });

  it("runs in a provider started with jobs on (alone, it leads)", async () => {
    const withJobs = await testProvider({
      jobs: true,
      market: createSimulatedMarket({ seed: 5, tickers: DEMO_TICKERS, now: () => NOW }),
    });
    try {
      await withJobs.scheduler.whenLeader();
      expect(withJobs.scheduler.isLeader).toBe(true);
      await withJobs.context.db
        .updateTable("backend_config")
        .set({ value: "1" })
        .where("key", "=", "auto_trade_recommendation_generation_enabled")
        .execute();
      await withJobs.scheduler.runNow(RECOMMENDATION_JOB);
      const count = await withJobs.context.db
        .selectFrom("recommendation_runs")
        .select(({ fn }) => fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBeGreaterThan(1);
    } finally {
      await withJobs.close();
    }
    expect(withJobs.scheduler.isLeader).toBe(false);
  });
});
