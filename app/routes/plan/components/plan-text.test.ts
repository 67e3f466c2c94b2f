import { describe, expect, it } from "vitest";
import { money, putAgainstLevels, scenarioTitle } from "./plan-text.ts";

const put = {
  ticker: "AAPL",
  strike: 200,
  expiry: "2026-12-18",
  contracts: 2,
  collateral: 40_000,
  premium_kept: 598.7,
  buy_level: "two" as const,
  vs_conservative: -0.0588,
};

describe("the Plan screen's wording", () => {
  it("sets a put against the trader's levels as the issue writes it", () => {
    expect(putAgainstLevels(put)).toBe("AAPL 200 × 2 = your 2nd buy level, 6 % under your conservative value");
    expect(putAgainstLevels({ ...put, buy_level: null, vs_conservative: 0.1 })).toBe(
      "AAPL 200 × 2 = 10 % over your conservative value",
    );
    expect(putAgainstLevels({ ...put, buy_level: null, vs_conservative: null })).toBe(
      "AAPL 200 × 2: no buy level or conservative value of yours to compare",
    );
  });

  it("names scenarios and money", () => {
    expect(scenarioTitle(-0.1)).toBe("Market 10 % lower at each expiry");
    expect(scenarioTitle(0.05)).toBe("Market 5 % higher at each expiry");
    expect(money(-7280)).toBe("−$7,280");
    expect(money(678.7)).toBe("$678.70");
  });
});
