import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

// A Wednesday noon in New York: the market is open.
const NOW = new Date("2026-11-18T17:00:00Z");

let provider: TestProvider;
let token: string;

beforeAll(async () => {
  provider = await testProvider({ market: createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => NOW }) });
  token = await provider.login("demo", "demo1234");
});
afterAll(() => provider.close());

const saved = async () =>
  calls.traderFilters.response.parse((await provider.call(calls.traderFilters, { token })).body);

describe("PUT /api/trader-filters: values a trader can read refused", () => {
  it("refuses a spread over 50% of the mid in the form's own words and percent, and saves nothing", async () => {
    const before = await saved();
    const res = await provider.call(calls.saveTraderFilters, {
      token,
      body: { ...before, max_spread: 0.9, commission: 1 },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("'Maximum spread (% of mid)' must be from 1% to 50% of the mid.");
    expect(await saved()).toEqual(before);
  });

  it("says which of two bounds is upside down, by the labels the form shows", async () => {
    const before = await saved();
    const res = await provider.call(calls.saveTraderFilters, {
      token,
      body: { ...before, dte_min: 45, dte_max: 30 },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("'Days to expiry from' must not be above 'Days to expiry to'.");
    expect(await saved()).toEqual(before);
  });

  it("asks for whole days and states the range", async () => {
    const res = await provider.call(calls.saveTraderFilters, { token, body: { ...(await saved()), dte_max: 30.5 } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("'Days to expiry to' must be a whole number from 1 to 90.");
  });
});

describe("GET /api/biz-trade-recommendations/{symbol}: filters in the query", () => {
  const list = (query: Record<string, string>) =>
    provider.call(calls.tradeRecommendations, { token, params: { symbol: "AAPL" }, query });

  it("answers a filter that is not a number with its label", async () => {
    const res = await list({ min_bid: "ten cents" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.detail).toContain("'Minimum bid ($)' must be a number.");
  });

  it("answers an out-of-range filter with the sentence alone, ready for the screen", async () => {
    const res = await list({ delta_min: "0.4", delta_max: "0.2" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: "'|Delta| from' must not be above '|Delta| to'." });
  });
});
