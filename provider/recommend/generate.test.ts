import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { MarketDataError } from "#provider/market/port.ts";
import { HttpError } from "#provider/http/errors.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { generateMany, generateRecommendations } from "./generate.ts";

const NOW = new Date("2026-11-18T17:00:00Z");
let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider({ market: createSimulatedMarket({ seed: 9, tickers: DEMO_TICKERS, now: () => NOW }) });
  // A stock the provider tracks but the market does not know (delisted, say).
  await provider.context.db
    .insertInto("stocks")
    .values({ ticker: "GHOST", name: "Ghost Corp", current_price: 5 })
    .execute();
});
afterAll(() => provider.close());

const context = () => ({ db: provider.context.db, market: provider.context.market });

describe("generateRecommendations", () => {
  it("says Not found for a ticker the provider does not track, and passes on the market's error for one it does", async () => {
    const unknown = await generateRecommendations(context(), "NOPE", { trigger: "test" }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(HttpError);
    expect(unknown).toMatchObject({ status: 404, message: "Not found" });
    const ghost = await generateRecommendations(context(), "GHOST", { trigger: "test" }).catch((e: unknown) => e);
    expect(ghost).toBeInstanceOf(MarketDataError);
    expect((ghost as MarketDataError).message).toContain("GHOST");
  });

  it("uses the mid as the premium when asked", async () => {
    const result = await generateRecommendations(context(), "KO", { trigger: "test", settings: { premium: "mid" } });
    for (const r of result.recommendations) expect(r.current_option_price).toBeCloseTo((r.bid + r.ask) / 2, 9);
  });
});

describe("generateMany", () => {
  it("generates each ticker once, a few at a time, and one failure does not stop the others", async () => {
    const outcomes = await generateMany(context(), ["AAPL", "GHOST", "MSFT", "PG", "V", "MA"], { trigger: "test" });
    expect(outcomes.map((o) => o.ticker).sort()).toEqual(["AAPL", "GHOST", "MA", "MSFT", "PG", "V"]);
    expect(outcomes.find((o) => o.ticker === "GHOST")!.error).toBeInstanceOf(MarketDataError);
    for (const o of outcomes.filter((o) => o.ticker !== "GHOST"))
      expect(o.result!.recommendations.length).toBeGreaterThan(0);
  });

  it("starts no new ticker once its signal aborts", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await generateMany(context(), ["AAPL", "MSFT"], { trigger: "test", signal: controller.signal })).toEqual([]);
  });
});
