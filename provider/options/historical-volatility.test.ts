import { describe, expect, it } from "vitest";
import { historicalVolatility } from "./historical-volatility.ts";

describe("historicalVolatility", () => {
  it("annualises the sample standard deviation of the last 20 log returns", () => {
    // Alternating ±1% log returns: the sample sd of 20 of them is 0.01 * sqrt(20/19).
    const closes = [50, 999]; // older points outside the window must not count
    let price = 100;
    closes.push(price);
    for (let i = 0; i < 20; i++) {
      price *= Math.exp(i % 2 ? -0.01 : 0.01);
      closes.push(price);
    }
    expect(historicalVolatility(closes)).toBeCloseTo(0.01 * Math.sqrt(20 / 19) * Math.sqrt(252), 12);
  });

  it("is zero for a constant drift", () => {
    const closes = Array.from({ length: 30 }, (_, i) => 100 * 1.01 ** i);
    expect(historicalVolatility(closes)).toBeCloseTo(0, 12);
  });

  it("honours the window and says how many closes it needs", () => {
    expect(() => historicalVolatility([1, 2, 3])).toThrow("needs at least 21 closes, got 3");
    expect(historicalVolatility([100, 101, 100, 101, 100, 101], 5)).toBeGreaterThan(0);
    expect(() => historicalVolatility([100, 0, 100], 2)).toThrow(/positive closes/);
  });
});
