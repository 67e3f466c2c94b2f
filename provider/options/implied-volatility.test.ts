import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bsPrice } from "./black-scholes.ts";
import { impliedVolatility, NoImpliedVolatilityError } from "./implied-volatility.ts";

describe("impliedVolatility", () => {
  it("recovers Hull's 20% from the call at 4.76", () => {
    const o = { spot: 42, strike: 40, years: 0.5, rate: 0.1 };
    expect(impliedVolatility("call", bsPrice("call", { ...o, volatility: 0.2 }), o)).toBeCloseTo(0.2, 10);
    expect(impliedVolatility("call", 4.76, o)).toBeCloseTo(0.2, 2);
  });

  it("round-trips price → volatility → price", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 5, max: 1000, noNaN: true }),
        fc.double({ min: 0.6, max: 1.4, noNaN: true }),
        fc.double({ min: 2 / 365, max: 2, noNaN: true }),
        fc.double({ min: 0.05, max: 2.5, noNaN: true }),
        fc.double({ min: 0, max: 0.03, noNaN: true }),
        fc.constantFrom("put" as const, "call" as const),
        (spot, moneyness, years, volatility, dividendYield, type) => {
          const o = { spot, strike: spot * moneyness, years, rate: 0.045, dividendYield };
          const price = bsPrice(type, { ...o, volatility });
          const iv = impliedVolatility(type, price, o);
          expect(Math.abs(bsPrice(type, { ...o, volatility: iv }) - price)).toBeLessThan(1e-8 * spot);
        },
      ),
    );
  });

  it("recovers the volatility where vega is not tiny", () => {
    const o = { spot: 228.5, strike: 225, years: 30 / 365, rate: 0.045, dividendYield: 0.005 };
    for (const sigma of [0.05, 0.26, 0.8, 3]) {
      expect(impliedVolatility("put", bsPrice("put", { ...o, volatility: sigma }), o)).toBeCloseTo(sigma, 8);
    }
  });

  it("throws a readable error below intrinsic value and above the no-arbitrage bound", () => {
    const o = { spot: 80, strike: 100, years: 0.25, rate: 0.05 };
    expect(() => impliedVolatility("put", 15, o)).toThrow(NoImpliedVolatilityError);
    expect(() => impliedVolatility("put", 15, o)).toThrow(/below the put's intrinsic value/);
    expect(() => impliedVolatility("put", 100, o)).toThrow(/no-arbitrage bound/);
    expect(() => impliedVolatility("call", 80, o)).toThrow(/no-arbitrage bound/);
    expect(() => impliedVolatility("call", 1, { ...o, years: 0 })).toThrow(/expired/);
    expect(() => impliedVolatility("call", -1, o)).toThrow(NoImpliedVolatilityError);
  });

  it("clamps to the floor when the time value is below what 0.1% volatility gives", () => {
    const o = { spot: 80, strike: 100, years: 0.25, rate: 0.05 };
    const intrinsic = 100 * Math.exp(-0.05 * 0.25) - 80;
    expect(impliedVolatility("put", intrinsic, o)).toBe(0.001);
  });

  it("throws when the price needs more than 500% volatility", () => {
    const o = { spot: 100, strike: 100, years: 0.1, rate: 0 };
    expect(() => impliedVolatility("call", 80, o)).toThrow(/above 500%/);
  });
});
