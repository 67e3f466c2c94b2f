import { describe, expect, it } from "vitest";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { expiryRefusal, listingRefusal } from "./trade-checks.ts";

/** The journal refuses an option that cannot exist (issue 41): its expiry, its strike, off the chain. */

const put = (expiry: string, strike = 60) => ({
  kind: "sell_to_open",
  ticker: "KO",
  option_type: "put",
  strike,
  expiry,
});

describe("an expiry on an exchange trading day", () => {
  it("refuses a Saturday and a Sunday by name", () => {
    expect(expiryRefusal(put("2026-12-19"))).toBe(
      "Expiry 2026-12-19 is a Saturday: options expire on exchange trading days",
    );
    expect(expiryRefusal(put("2026-12-20"))).toBe(
      "Expiry 2026-12-20 is a Sunday: options expire on exchange trading days",
    );
  });

  it("refuses an NYSE holiday by its name: Christmas on Friday 2026-12-25, Good Friday 2026-04-03", () => {
    expect(expiryRefusal(put("2026-12-25"))).toBe(
      "Expiry 2026-12-25 is Christmas Day, an NYSE holiday: options expire on exchange trading days",
    );
    expect(expiryRefusal(put("2026-04-03"))).toContain("is Good Friday, an NYSE holiday");
  });

  it("takes a trading Friday, the Thursday before a holiday Friday, and a stock trade", () => {
    expect(expiryRefusal(put("2026-12-18"))).toBeNull();
    expect(expiryRefusal(put("2026-12-24"))).toBeNull();
    expect(expiryRefusal({ kind: "stock_buy", ticker: "KO" })).toBeNull();
  });
});

describe("a strike and expiry the chain lists", () => {
  // Wednesday 2026-11-18, noon in New York: KO's chain lists weekly Fridays and a strike grid.
  const now = new Date("2026-11-18T17:00:00Z");
  const market = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => now });

  it("takes a listed put, and refuses a strike between two listed ones, naming them", async () => {
    const chain = await market.optionChain("KO");
    const expiration = chain.expirations[0]!;
    const strikes = expiration.options.filter((o) => o.type === "put").map((o) => o.strike);
    const [low, high] = [strikes[3]!, strikes[4]!];
    expect(await listingRefusal(market, put(expiration.expiration, low), now)).toBeNull();
    const between = Math.round(((low + high) / 2) * 100) / 100;
    expect(await listingRefusal(market, put(expiration.expiration, between), now)).toBe(
      `Strike ${between} is not listed for KO puts expiring ${expiration.expiration}; the nearest listed are ${low} and ${high}`,
    );
  });

  it("refuses an expiry the chain does not list (a Wednesday), naming the listed ones nearest it", async () => {
    const refusal = await listingRefusal(market, put("2026-12-02"), now);
    expect(refusal).toMatch(
      /^Expiry 2026-12-02 is not listed for KO options; the chain lists 2026-11-20, 2026-11-27, /,
    );
    expect(refusal).toContain("2026-12-04");
  });

  it("leaves out what the chain cannot say: an expired option, a ticker the source does not know, a closing trade", async () => {
    expect(await listingRefusal(market, put("2026-11-13", 61.3), now)).toBeNull();
    expect(await listingRefusal(market, { ...put("2026-12-02"), ticker: "NOSUCH" }, now)).toBeNull();
    expect(await listingRefusal(market, { ...put("2026-12-02"), kind: "buy_to_close" }, now)).toBeNull();
  });
});
