import { describe, expect, it } from "vitest";
import {
  distanceBand,
  expiryChip,
  expiryLong,
  explainGreeks,
  LAST_TRADE_NOTE,
  moneyness,
  premiumLabel,
  pricingInputs,
  priceTrend,
  quoteProvenance,
  strikeDistance,
  underlyingOf,
} from "./option-card.ts";

describe("moneyness (docs/product.md#states-option-card: strike above the stock price is ITM, otherwise OTM)", () => {
  it("is ITM only when the strike is above the price", () => {
    expect(moneyness(100.01, 100)).toBe("ITM");
    expect(moneyness(100, 100)).toBe("OTM");
    expect(moneyness(99.99, 100)).toBe("OTM");
  });
});

describe("strike distance and its indicator (up to 5 %, up to 15 %, above 15 %)", () => {
  it("gives dollars and percent of the stock price, on either side", () => {
    expect(strikeDistance(90, 100)).toMatchObject({ dollars: 10, fraction: 0.1, percentText: "10.0%", side: "below" });
    expect(strikeDistance(103, 100)).toMatchObject({ dollars: 3, percentText: "3.0%", side: "above" });
    expect(strikeDistance(100, 100)).toMatchObject({ dollars: 0, percentText: "0.0%", side: "at", band: "near" });
  });

  it("puts exactly 5 % in the first band and anything shown above it in the second", () => {
    expect(strikeDistance(95, 100).band).toBe("near");
    expect(strikeDistance(105, 100).band).toBe("near");
    expect(strikeDistance(94.9, 100)).toMatchObject({ percentText: "5.1%", band: "mid" });
  });

  it("puts exactly 15 % in the second band and anything shown above it in the third", () => {
    expect(strikeDistance(85, 100).band).toBe("mid");
    expect(strikeDistance(115, 100).band).toBe("mid");
    expect(strikeDistance(84.9, 100)).toMatchObject({ percentText: "15.1%", band: "far" });
    expect(strikeDistance(50, 100).band).toBe("far");
  });

  it("judges the percentage as shown, so the label never contradicts the number next to it", () => {
    // 5.04 % is shown as 5.0 %: within 5 %.
    expect(strikeDistance(94.96, 100)).toMatchObject({ percentText: "5.0%", band: "near" });
    // A real price: 221.56 − 210.48 = 11.08 is 5.0009 % of 221.56, shown as 5.0 %.
    expect(strikeDistance(210.48, 221.56)).toMatchObject({ percentText: "5.0%", band: "near" });
    expect(distanceBand(5)).toBe("near");
    expect(distanceBand(5.1)).toBe("mid");
    expect(distanceBand(15)).toBe("mid");
    expect(distanceBand(15.1)).toBe("far");
  });
});

describe("trend icon by thirds of the weekly range", () => {
  // Low 1, high 4: the range is 3, its thirds end at 2 and 3.
  it("is up above the high minus a third, neutral exactly at it", () => {
    expect(priceTrend(3.01, 1, 4)).toBe("up");
    expect(priceTrend(3, 1, 4)).toBe("neutral");
    expect(priceTrend(4, 1, 4)).toBe("up");
  });

  it("is down below the low plus a third, neutral exactly at it", () => {
    expect(priceTrend(1.99, 1, 4)).toBe("down");
    expect(priceTrend(2, 1, 4)).toBe("neutral");
    expect(priceTrend(1, 1, 4)).toBe("down");
  });

  it("is neutral in the middle third", () => {
    expect(priceTrend(2.5, 1, 4)).toBe("neutral");
  });

  it("holds at the lines with prices that are not exact in binary", () => {
    // Low 2.14, high 3.37: a third of the range is 0.41, the lines are 2.55 and 2.96.
    expect(priceTrend(2.96, 2.14, 3.37)).toBe("neutral");
    expect(priceTrend(2.97, 2.14, 3.37)).toBe("up");
    expect(priceTrend(2.55, 2.14, 3.37)).toBe("neutral");
    expect(priceTrend(2.54, 2.14, 3.37)).toBe("down");
  });

  it("is neutral when the week had a single price", () => {
    expect(priceTrend(2.33, 2.33, 2.33)).toBe("neutral");
  });
});

describe("dates and symbols", () => {
  it("writes date chips as MM/DD and the long form in en-GB, whatever the time zone", () => {
    expect(expiryChip("2026-11-27")).toBe("11/27");
    expect(expiryChip("2027-01-08")).toBe("01/08");
    expect(expiryLong("2027-01-08")).toBe("8 Jan 2027");
  });

  it("reads the underlying from an OCC symbol", () => {
    expect(underlyingOf("AAPL261127P00220000")).toBe("AAPL");
    expect(underlyingOf("V261127P00290000")).toBe("V");
    expect(underlyingOf("not-a-symbol")).toBe("not-a-symbol");
  });
});

describe("greeks in plain words", () => {
  it("uses this option's values, per share and per contract", () => {
    const [delta, theta, vega] = explainGreeks({
      ticker: "AAPL",
      delta: -0.4088,
      theta: -0.2116,
      vega: 0.1192,
      assignment: 0.4512,
    });
    expect(delta).toMatchObject({ name: "Delta", value: "-0.41" });
    expect(delta!.text).toContain(
      "For every $1 AAPL moves, this put moves about $0.41 the other way ($40.88 a contract)",
    );
    // |delta| is labelled a shortcut, and the risk-neutral chance of assignment stands beside it.
    expect(delta!.text).toContain("Traders read |delta| (41%) as a rough chance of being assigned; it understates it");
    expect(delta!.text).toContain("the risk-neutral chance of ending below the strike, N(−d2), is 45%.");
    expect(explainGreeks({ ticker: "AAPL", delta: -0.4088, theta: 0, vega: 0 })[0]!.text).toMatch(/understates it\.$/);
    expect(theta).toMatchObject({ name: "Theta", value: "-0.21" });
    expect(theta!.text).toContain("loses about $0.21 of value a day ($21.16 a contract)");
    expect(vega).toMatchObject({ name: "Vega", value: "0.12" });
    expect(vega!.text).toContain("gains about $0.12 ($11.92 a contract)");
  });
});

describe("where the figures came from and how old they are (docs/product.md#states-option-card)", () => {
  const now = new Date("2026-11-18T17:00:00Z");

  it("says the source and the chain's age, as the stock rows do", () => {
    expect(quoteProvenance({ market_source: "tradier", quoted_at: "2026-11-18T16:57:00Z" }, now)).toBe(
      "tradier · 3 minutes ago",
    );
    // Yesterday's close, read the next day at noon: 20 hours old.
    expect(quoteProvenance({ market_source: "yahoo", quoted_at: "2026-11-17T21:00:00Z" }, now)).toBe(
      "yahoo · 20 hours ago",
    );
  });

  it("says so when a row stored before provenance was kept does not know it", () => {
    expect(quoteProvenance({ market_source: null, quoted_at: null }, now)).toBe(
      "source not recorded · time not recorded",
    );
  });

  it("labels a premium taken from the last trade as such, never as a bid", () => {
    expect(premiumLabel("quote")).toBe("Premium (bid)");
    expect(premiumLabel("last")).toBe("Premium (last trade)");
    expect(LAST_TRADE_NOTE).toMatch(/^Last trade, not a live bid/);
  });
});

describe("pricingInputs: what an option was priced with (issue 46)", () => {
  it("gives the dividend yield and rate as percentages a year, with their source", () => {
    // AAPL in the demo: q = 0.0205, r = 0.045 → "2.05%" and "4.50%".
    expect(pricingInputs({ dividend_yield: 0.0205, rate: 0.045, market_source: "simulated" })).toEqual({
      dividendYield: "2.05%",
      rate: "4.50%",
      source: "the simulated market",
    });
    expect(pricingInputs({ dividend_yield: 0, rate: 0.0412, market_source: "yahoo" }).dividendYield).toBe("0.00%");
    expect(pricingInputs({ dividend_yield: null, rate: 0.0412, market_source: null })).toEqual({
      dividendYield: "not recorded",
      rate: "4.12%",
      source: "a source not recorded",
    });
  });
});
