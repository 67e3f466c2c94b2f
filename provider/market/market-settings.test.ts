import { describe, expect, it } from "vitest";
import { providerStartOptions, readProviderEnv } from "#provider/env.ts";

describe("market data settings", () => {
  it("stops start-up with one clear line when MARKET_DATA=tradier has no token", () => {
    expect(() => readProviderEnv({ MARKET_DATA: "tradier" })).toThrow(
      "Invalid provider settings:\n  TRADIER_TOKEN: required when MARKET_DATA=tradier (an API access token from your Tradier account)",
    );
    // An empty setting (compose, docker run -e) is unset too.
    expect(() => readProviderEnv({ MARKET_DATA: "tradier", TRADIER_TOKEN: "" })).toThrow(/TRADIER_TOKEN: required/);
  });

  it("defaults Tradier to the production API and passes the token, sandbox URL and rate on", () => {
    expect(providerStartOptions(readProviderEnv({ MARKET_DATA: "tradier", TRADIER_TOKEN: "t0k" })).tradier).toEqual({
      token: "t0k",
      baseUrl: "https://api.tradier.com/v1",
    });
    const sandbox = providerStartOptions(
      readProviderEnv({
        MARKET_DATA: "tradier",
        TRADIER_TOKEN: "t0k",
        TRADIER_BASE_URL: "https://sandbox.tradier.com/v1",
        RISK_FREE_RATE: "0.043",
      }),
    );
    expect(sandbox).toMatchObject({
      marketData: "tradier",
      tradier: { token: "t0k", baseUrl: "https://sandbox.tradier.com/v1" },
      riskFreeRate: 0.043,
    });
  });

  it("refuses an unknown source and a rate given in percent", () => {
    expect(() => readProviderEnv({ MARKET_DATA: "bloomberg" })).toThrow(/MARKET_DATA/);
    expect(() => readProviderEnv({ RISK_FREE_RATE: "4.3" })).toThrow(/RISK_FREE_RATE/);
  });

  it("starts the demo market alive: replaying while closed, and a new demo folder with live prices on", () => {
    expect(providerStartOptions(readProviderEnv({}))).toMatchObject({
      marketData: "simulated",
      demoMarketReplay: true,
      seedDemo: true,
      demoLivePrices: true,
    });
    expect(providerStartOptions(readProviderEnv({ DEMO_LIVE_PRICES: "false" })).demoLivePrices).toBe(false);
    expect(() => readProviderEnv({ DEMO_LIVE_PRICES: "yes" })).toThrow(/DEMO_LIVE_PRICES/);
  });
});
