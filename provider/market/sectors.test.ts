import { describe, expect, it } from "vitest";
import { gicsOfYahoo, GICS_SECTORS, simulatedSector } from "./sectors.ts";

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
});
