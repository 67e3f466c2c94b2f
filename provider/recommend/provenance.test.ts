import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import type { MarketData } from "#provider/market/port.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

/**
 * Every recommended put says where its figures came from and how old they are
 * (docs/product.md#states-option-card). A vendor after hours: the chain is Tradier's, made at
 * Wednesday's close, and AAPL's puts have no quoted bid, so their last trades stand in for it
 * (bidSource "last", ADR 0030); MSFT's are quoted bids.
 */
const NOW = new Date("2026-11-18T17:00:00Z");
const CLOSE = new Date("2026-11-18T16:30:00Z");
const simulated = createSimulatedMarket({ seed: 9, tickers: DEMO_TICKERS, now: () => NOW });
const market: MarketData = {
  ...simulated,
  async optionChain(ticker) {
    const chain = await simulated.optionChain(ticker);
    const lastTrade = ticker === "AAPL";
    return {
      ...chain,
      source: "tradier",
      asOf: CLOSE,
      expirations: chain.expirations.map((e) => ({
        ...e,
        options: e.options.map((o) => ({ ...o, bidSource: lastTrade ? ("last" as const) : ("quote" as const) })),
      })),
    };
  },
};

let provider: TestProvider;
let token: string;
beforeAll(async () => {
  provider = await testProvider({ market });
  token = await provider.login("demo", "demo1234");
});
afterAll(() => provider.close());

describe("a recommendation's provenance", () => {
  it("is stored with each put and served: the source, the chain's time, and a last trade standing in for the bid", async () => {
    for (const ticker of ["AAPL", "MSFT"]) {
      expect((await provider.call(calls.generateRecommendations, { token, params: { ticker } })).status).toBe(200);
    }
    const wide = { dte_min: "1", dte_max: "90", delta_min: "0", delta_max: "0.6", min_open_interest: "0" };
    const aapl = await provider.call(calls.tradeRecommendations, { token, params: { symbol: "AAPL" }, query: wide });
    const msft = await provider.call(calls.tradeRecommendations, { token, params: { symbol: "MSFT" }, query: wide });
    expect(aapl.body.length).toBeGreaterThan(0);
    expect(msft.body.length).toBeGreaterThan(0);
    for (const r of aapl.body) {
      expect(r).toMatchObject({ market_source: "tradier", quoted_at: CLOSE.toISOString(), bid_source: "last" });
    }
    for (const r of msft.body) expect(r.bid_source).toBe("quote");
    // The option detail reads one by id: the same provenance.
    const one = await provider.call(calls.tradeRecommendation, { token, params: { id: String(aapl.body[0]!.id) } });
    expect(one.body).toMatchObject({ market_source: "tradier", quoted_at: CLOSE.toISOString(), bid_source: "last" });
  });
});
