import { describe, expect, it } from "vitest";
import { gicsOfMorningstarCode, gicsOfYahoo, GICS_SECTORS, simulatedSector } from "./sectors.ts";

describe("sectors", () => {
  it("gives the demo tickers their real sector and others a plausible, stable one", () => {
    expect(simulatedSector("aapl")).toBe("Information Technology");
    expect(simulatedSector("KO")).toBe("Consumer Staples");
    expect(GICS_SECTORS).toContain(simulatedSector("ZZZQ"));
    expect(simulatedSector("ZZZQ")).toBe(simulatedSector("zzzq"));
  });

  it("maps Yahoo's sector names onto GICS", () => {
    expect(gicsOfYahoo("Technology")).toBe("Information Technology");
    expect(gicsOfYahoo("Consumer Defensive")).toBe("Consumer Staples");
    expect(gicsOfYahoo("Financial Services")).toBe("Financials");
    expect(gicsOfYahoo(undefined)).toBeNull();
  });

  it("maps Morningstar's sector codes (Tradier's fundamentals) onto all eleven GICS sectors", () => {
    const codes = [101, 102, 103, 104, 205, 206, 207, 308, 309, 310, 311];
    expect(codes.map(gicsOfMorningstarCode)).toEqual([
      "Materials",
      "Consumer Discretionary",
      "Financials",
      "Real Estate",
      "Consumer Staples",
      "Health Care",
      "Utilities",
      "Communication Services",
      "Energy",
      "Industrials",
      "Information Technology",
    ]);
    expect(new Set(codes.map(gicsOfMorningstarCode))).toEqual(new Set(GICS_SECTORS));
    expect(gicsOfMorningstarCode(999)).toBeNull();
    expect(gicsOfMorningstarCode("311")).toBeNull();
    expect(gicsOfMorningstarCode(undefined)).toBeNull();
  });
});
