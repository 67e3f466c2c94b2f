import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { generateRecommendations } from "#provider/recommend/generate.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { MarketDataError, type MarketData } from "./port.ts";
import { createSimulatedMarket } from "./simulated.ts";

/** A vendor whose chain for KO comes back from before the latest session (a stuck feed). */
const NOW = new Date("2026-11-18T17:00:00Z");
const simulated = createSimulatedMarket({ seed: 9, tickers: DEMO_TICKERS, now: () => NOW });
const market: MarketData = {
  ...simulated,
  async optionChain(ticker) {
    const chain = await simulated.optionChain(ticker);
    return ticker === "KO" ? { ...chain, asOf: new Date("2026-11-17T21:00:00Z"), stale: true } : chain;
  },
};

let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider({ market });
});
afterAll(() => provider.close());

describe("stale market data", () => {
  it("is not used to generate recommendations, and the caller is told why", async () => {
    const context = { db: provider.context.db, market };
    const error = await generateRecommendations(context, "KO", { trigger: "test" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarketDataError);
    expect(error).toMatchObject({
      status: 503,
      message:
        "Market data for KO is from 2026-11-17T21:00:00.000Z, before the latest session; no recommendations are made from it",
    });
    const runs = await provider.context.db
      .selectFrom("recommendation_runs")
      .innerJoin("stocks", "stocks.id", "recommendation_runs.stock_id")
      .where("stocks.ticker", "=", "KO")
      .select("recommendation_runs.id")
      .execute();
    expect(runs).toEqual([]);
    // A fresh chain still generates.
    expect((await generateRecommendations(context, "PG", { trigger: "test" })).ticker).toBe("PG");
  });
});
