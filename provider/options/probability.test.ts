import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bsGreeks } from "./black-scholes.ts";
import { probabilityAbove, probabilityBelow, putBreakeven } from "./probability.ts";

describe("probabilityAbove", () => {
  it("is N(d2), the risk-neutral probability a call ends in the money", () => {
    // Digital call = e^{-rT} N(d2) = −∂C/∂K.
    const o = { spot: 100, years: 0.5, rate: 0.05, dividendYield: 0.01, volatility: 0.3 };
    const h = 1e-3;
    const c = (k: number) => bsGreeks("call", { ...o, strike: k }).price;
    const digital = -(c(95 + h) - c(95 - h)) / (2 * h);
    expect(probabilityAbove({ ...o, level: 95 })).toBeCloseTo(digital * Math.exp(0.05 * 0.5), 6);
  });

  it("gives the breakeven odds of a short put", () => {
    const p = probabilityAbove({
      spot: 228.5,
      level: putBreakeven(210, 2.4),
      years: 30 / 365,
      rate: 0.045,
      volatility: 0.26,
    });
    expect(p).toBeGreaterThan(0.8);
    expect(p).toBeLessThan(0.95);
  });

  it("is decided by the forward with no time or volatility", () => {
    expect(probabilityAbove({ spot: 100, level: 99, years: 0, rate: 0, volatility: 0.3 })).toBe(1);
    expect(probabilityAbove({ spot: 100, level: 101, years: 1, rate: 0, volatility: 0 })).toBe(0);
    expect(probabilityAbove({ spot: 100, level: 0, years: 1, rate: 0, volatility: 0.2 })).toBe(1);
  });

  it("is a probability that falls as the level rises", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1000, noNaN: true }),
        fc.double({ min: 0.5, max: 1.5, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        (spot, ratio, years, volatility) => {
          const o = { spot, years, rate: 0.04, volatility };
          const p = probabilityAbove({ ...o, level: spot * ratio });
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(1);
          expect(probabilityAbove({ ...o, level: spot * ratio * 1.01 })).toBeLessThanOrEqual(p);
          expect(probabilityBelow({ ...o, level: spot * ratio })).toBeCloseTo(1 - p, 12);
        },
      ),
    );
  });
});
