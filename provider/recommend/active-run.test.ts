import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { generateRecommendations } from "./generate.ts";
import { activeRecommendations, recommendationById, topLine } from "./store.ts";
import { DEFAULT_FILTERS } from "./selection.ts";

/**
 * ADR 0040: pool rows are written once; a stock's active set is the run active_recommendation_runs
 * points at, flipped in the run's transaction. Replaced rows must not read as active, and a reader
 * during a generation sees the old run or the new one, whole, never a mix of the two.
 */
const NOW = new Date("2026-11-18T17:00:00Z");
let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider({ market: createSimulatedMarket({ seed: 5, tickers: DEMO_TICKERS, now: () => NOW }) });
});
afterAll(() => provider.close());

const context = () => ({ db: provider.context.db, market: provider.context.market });
const WIDE = { ...DEFAULT_FILTERS, delta_min: 0, delta_max: 1, dte_min: 0, dte_max: 400, min_bid: 0, max_spread: 10 };

describe("the active run of a stock", () => {
  it("is the latest run: a replaced run's rows are neither listed, counted nor marked active", async () => {
    const { db } = provider.context;
    const first = await generateRecommendations(context(), "JPM", { trigger: "test" });
    const second = await generateRecommendations(context(), "JPM", { trigger: "test", settings: { premium: "mid" } });
    const list = await activeRecommendations(db, first.stockId, null, WIDE);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((r) => r.trade_recommendations_id === second.runId && r.active === 1)).toBe(true);

    const old = first.recommendations[0]!;
    expect(await recommendationById(db, old.id, null, WIDE)).toMatchObject({ id: old.id, active: 0 });
    expect(await recommendationById(db, list[0]!.id, null, WIDE)).toMatchObject({ active: 1 });
    const entry = (await topLine(db, null, WIDE)).find((t) => t.ticker === "JPM");
    expect(entry?.trade_recommendation_count).toBe(list.filter((r) => !r.nearest_above_conservative).length);
  });

  it("is read whole while a generation replaces it: the old run's list or the new one's, never a mix", async () => {
    const { db } = provider.context;
    const stockId = (await generateRecommendations(context(), "PEP", { trigger: "test" })).stockId;
    const before = await activeRecommendations(db, stockId, null, WIDE);
    expect(before.length).toBeGreaterThan(1);

    const reads: Awaited<ReturnType<typeof activeRecommendations>>[] = [];
    let done = false;
    const generating = generateRecommendations(context(), "PEP", {
      trigger: "test",
      settings: { premium: "mid" },
    }).finally(() => (done = true));
    while (!done) reads.push(await activeRecommendations(db, stockId, null, WIDE));
    const { runId } = await generating;
    const after = await activeRecommendations(db, stockId, null, WIDE);
    expect(after[0]!.trade_recommendations_id).toBe(runId);
    expect(after).not.toEqual(before);

    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect([before, after]).toContainEqual(read);
  });
});
