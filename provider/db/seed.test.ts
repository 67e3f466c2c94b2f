import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { createProvider } from "#provider/app.ts";
import { testProvider } from "#provider/testing/provider.ts";
import { DEMO_WATCHLIST } from "./demo-data.ts";

const FLAGGED = DEMO_WATCHLIST.filter((w) => w.recommend)
  .map((w) => w.ticker)
  .sort();

describe("demo recommendations at first seed", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("gives the demo's flagged tickers a set, without notifying anyone", async () => {
    const provider = await testProvider({ seedRecommendations: true });
    try {
      const token = await provider.login("demo", "demo1234");
      const top = calls.topLineRecommendations.response.parse(
        (await provider.call(calls.topLineRecommendations, { token })).body,
      );
      expect(top.map((t) => t.ticker)).toEqual(FLAGGED);
      // Each flagged ticker has a priced set of puts; how many pass the demo trader's own filters
      // (delta range, strikes at or below their conservative value, no earnings inside) depends on
      // the day's chains, so /insights opens with some, not necessarily some for every ticker.
      const pooled = await provider.context.db
        .selectFrom("active_recommendation_runs as a")
        .innerJoin("trade_recommendations as r", "r.run_id", "a.run_id")
        .innerJoin("stocks as s", "s.id", "a.stock_id")
        .select(["s.ticker", (eb) => eb.fn.countAll<number>().as("puts")])
        .groupBy("s.ticker")
        .orderBy("s.ticker")
        .execute();
      expect(pooled.map((p) => p.ticker)).toEqual(FLAGGED);
      expect(pooled.every((p) => Number(p.puts) > 0)).toBe(true);
      expect(top.some((t) => t.trade_recommendation_count > 0)).toBe(true);
      const notified = await provider.context.db.selectFrom("user_notifications").select("id").execute();
      expect(notified).toEqual([]);
    } finally {
      await provider.close();
    }
  });

  it("generates only when the demo data is first loaded, not at every start", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "seed-recs-"));
    dirs.push(dataDir);
    const options = { dataDir, seedDemo: true, seedRecommendations: true, jobs: false, secrets: ["s".repeat(32)] };
    const runs = async () => {
      const provider = await createProvider(options);
      try {
        return (await provider.context.db.selectFrom("recommendation_runs").select("id").execute()).length;
      } finally {
        await provider.close();
      }
    };
    expect(await runs()).toBe(FLAGGED.length);
    expect(await runs()).toBe(FLAGGED.length);
  });

  it("stays off unless asked", async () => {
    const provider = await testProvider();
    try {
      const token = await provider.login("demo", "demo1234");
      expect((await provider.call(calls.topLineRecommendations, { token })).body).toEqual([]);
    } finally {
      await provider.close();
    }
  });
});
