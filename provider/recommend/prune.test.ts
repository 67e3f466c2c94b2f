import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { PRUNE_RUNS_JOB } from "#provider/jobs/prune-job.ts";
import { runTrackRecord } from "#provider/track-record/job.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { generateRecommendations } from "./generate.ts";

/**
 * Issue 19 item 6: stored runs are pruned by the leader's scheduled job, keeping what the screens
 * and the track record need (docs/decisions/0031-bounded-work-per-trader.md): each stock's latest
 * run and latest announced run, runs younger than the kept days, and any run whose puts the track
 * record has not copied yet.
 */
// Wednesday 2026-11-18, noon in New York: the market is open and the chains are full.
const NOW = new Date("2026-11-18T17:00:00Z");
const market = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => NOW });
const KEEP_DAYS = 14;

let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider({ market, keepRunsDays: KEEP_DAYS });
});
afterAll(() => provider.close());

describe("pruning stored recommendation runs", () => {
  it("drops only old runs nothing needs; the active sets, the track record and uncopied runs stay", async () => {
    const db = provider.context.db;
    const context = { db, market };
    const run = async (ticker: string) => (await generateRecommendations(context, ticker, { trigger: "test" })).runId;
    const [m1, m2, m3, m4] = [await run("MSFT"), await run("MSFT"), await run("MSFT"), await run("MSFT")];
    const a1 = await run("AAPL");
    // The track record copies what was shown so far; two more runs come after the copy.
    expect((await runTrackRecord(context, { now: () => NOW })).copied).toBeGreaterThan(0);
    const [m5, m6] = [await run("MSFT"), await run("MSFT")];

    const daysAgo = async (id: number, days: number, announced = false) =>
      sql`UPDATE recommendation_runs SET created_at = now() - make_interval(days => ${days}),
            inputs = jsonb_set(inputs, '{announced}', ${announced ? "true" : "false"}::jsonb) WHERE id = ${id}`.execute(
        db,
      );
    await daysAgo(m1, 40, true); // announced, but a later run was announced too: pruned
    await daysAgo(m2, 39, true); // MSFT's latest announced run: kept
    await daysAgo(m3, 38); // old, copied, replaced: pruned
    await daysAgo(m4, 3); // replaced, but younger than the kept days: kept
    await daysAgo(m5, 20); // old and replaced, but not copied into the track record yet: kept
    await daysAgo(m6, 1); // MSFT's latest (active) run: kept
    await daysAgo(a1, 40); // AAPL's only run, active: kept

    const demo = await provider.login("demo", "demo1234");
    const shown = async (symbol: string) =>
      (await provider.call(calls.tradeRecommendations, { token: demo, params: { symbol } })).body;
    const picks = () => db.selectFrom("track_record_picks").selectAll().orderBy("id").execute();
    const rowsOf = async (runId: number) =>
      (await db.selectFrom("trade_recommendations").select("id").where("run_id", "=", runId).execute()).map(
        (r) => r.id,
      );
    const before = { msft: await shown("MSFT"), aapl: await shown("AAPL"), picks: await picks() };
    expect(before.msft.length).toBeGreaterThan(0);
    const prunedRow = (await rowsOf(m3))[0]!;
    const keptRow = (await rowsOf(m4))[0]!;
    expect(prunedRow).toBeDefined();

    await provider.scheduler.runNow(PRUNE_RUNS_JOB);

    const left = await db.selectFrom("recommendation_runs").select("id").orderBy("id").execute();
    expect(left.map((r) => r.id)).toEqual([m2, m4, a1, m5, m6].sort((x, y) => x - y));
    expect(await rowsOf(m1)).toEqual([]);
    expect(await rowsOf(m3)).toEqual([]);
    expect((await rowsOf(m5)).length).toBeGreaterThan(0);
    // What the screens show and the track record are unchanged.
    expect(await shown("MSFT")).toEqual(before.msft);
    expect(await shown("AAPL")).toEqual(before.aapl);
    expect(await picks()).toEqual(before.picks);
    // A replaced put of a kept run still opens by id; one of a pruned run is gone.
    const byId = (id: number) => provider.call(calls.tradeRecommendation, { token: demo, params: { id } });
    expect((await byId(keptRow)).status).toBe(200);
    expect((await byId(prunedRow)).status).toBe(404);

    // Once the track record copies m5, it may go too; pruning twice changes nothing more.
    await runTrackRecord(context, { now: () => NOW });
    await provider.scheduler.runNow(PRUNE_RUNS_JOB);
    await provider.scheduler.runNow(PRUNE_RUNS_JOB);
    const after = await db.selectFrom("recommendation_runs").select("id").orderBy("id").execute();
    expect(after.map((r) => r.id)).toEqual([m2, m4, a1, m6].sort((x, y) => x - y));
    expect((await picks()).length).toBeGreaterThanOrEqual(before.picks.length);
  });
});
