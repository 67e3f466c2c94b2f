import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bsGreeks, bsPrice, type OptionInputs } from "./black-scholes.ts";

describe("Black-Scholes-Merton, Hull's worked examples", () => {
  it("prices the S=42, K=40 example: call 4.76, put 0.81", () => {
    const o = { spot: 42, strike: 40, years: 0.5, rate: 0.1, volatility: 0.2 };
    expect(bsPrice("call", o)).toBeCloseTo(4.76, 2);
    expect(bsPrice("put", o)).toBeCloseTo(0.81, 2);
  });

  it("gives the greeks of the S=49, K=50 example", () => {
    const g = bsGreeks("call", { spot: 49, strike: 50, years: 20 / 52, rate: 0.05, volatility: 0.2 });
    expect(g.price).toBeCloseTo(2.4, 1);
    expect(g.delta).toBeCloseTo(0.522, 3);
    expect(g.gamma).toBeCloseTo(0.066, 3);
    expect(g.vega).toBeCloseTo(0.121, 3); // 12.1 per unit of sigma
    expect(g.theta * 365).toBeCloseTo(-4.31, 2);
    expect(g.theta).toBeCloseTo(-0.0118, 4);
    expect(g.rho).toBeCloseTo(0.089, 3); // 8.91 per unit of rate
  });
});

describe("Black-Scholes-Merton, identities", () => {
  it("satisfies put-call parity with a dividend yield", () => {
    fc.assert(
      fc.property(inputs(), (o) => {
        const lhs = bsPrice("call", o) - bsPrice("put", o);
        const rhs = o.spot * Math.exp(-(o.dividendYield ?? 0) * o.years) - o.strike * Math.exp(-o.rate * o.years);
        expect(Math.abs(lhs - rhs)).toBeLessThan(1e-9 * Math.max(o.spot, o.strike));
      }),
    );
  });

  it("matches finite differences for delta, gamma, vega, theta and rho", () => {
    const o: OptionInputs = { spot: 100, strike: 95, years: 0.3, rate: 0.04, dividendYield: 0.015, volatility: 0.32 };
    for (const type of ["put", "call"] as const) {
      const g = bsGreeks(type, o);
      const p = (change: Partial<OptionInputs>) => bsPrice(type, { ...o, ...change });
      const h = 1e-3;
      expect(g.delta).toBeCloseTo((p({ spot: 100 + h }) - p({ spot: 100 - h })) / (2 * h), 6);
      expect(g.gamma).toBeCloseTo((p({ spot: 100 + h }) - 2 * g.price + p({ spot: 100 - h })) / (h * h), 4);
      expect(g.vega).toBeCloseTo((p({ volatility: 0.33 }) - p({ volatility: 0.31 })) / 2, 4);
      expect(g.rho).toBeCloseTo((p({ rate: 0.05 }) - p({ rate: 0.03 })) / 2, 4);
      // Central difference over an hour, scaled to a day.
      const hour = 1 / (365 * 24);
      expect(g.theta).toBeCloseTo(((p({ years: 0.3 - hour }) - p({ years: 0.3 + hour })) / 2) * 24, 6);
    }
  });
});

describe("Black-Scholes-Merton, limits", () => {
  it("is worth intrinsic value at expiry", () => {
    expect(bsGreeks("put", { spot: 90, strike: 100, years: 0, rate: 0.05, volatility: 0.3 })).toEqual({
      price: 10,
      delta: -1,
      gamma: 0,
      theta: 0,
      vega: 0,
      rho: 0,
    });
    expect(bsPrice("call", { spot: 90, strike: 100, years: -1, rate: 0.05, volatility: 0.3 })).toBe(0);
    expect(bsGreeks("call", { spot: 100, strike: 100, years: 0, rate: 0.05, volatility: 0.3 }).delta).toBe(0.5);
  });

  it("is worth discounted forward intrinsic value with no volatility", () => {
    const o = { spot: 90, strike: 100, years: 1, rate: 0.05, dividendYield: 0.02, volatility: 0 };
    const g = bsGreeks("put", o);
    expect(g.price).toBeCloseTo(100 * Math.exp(-0.05) - 90 * Math.exp(-0.02), 12);
    expect(g.delta).toBeCloseTo(-Math.exp(-0.02), 12);
    expect(bsPrice("call", o)).toBe(0);
    // Continuous with a tiny volatility.
    expect(bsPrice("put", { ...o, volatility: 1e-6 })).toBeCloseTo(g.price, 9);
    expect(bsGreeks("put", { ...o, volatility: 1e-6 }).theta).toBeCloseTo(g.theta, 9);
  });

  it("never returns NaN near the limits", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1e4, noNaN: true }),
        fc.double({ min: 0.01, max: 1e4, noNaN: true }),
        fc.double({ min: 0, max: 1e-6, noNaN: true }),
        fc.double({ min: 0, max: 1e-3, noNaN: true }),
        fc.constantFrom("put" as const, "call" as const),
        (spot, strike, years, volatility, type) => {
          const g = bsGreeks(type, { spot, strike, years, rate: 0.05, volatility });
          for (const v of Object.values(g)) expect(Number.isNaN(v)).toBe(false);
        },
      ),
    );
  });

  it("rejects impossible inputs with a readable error", () => {
    expect(() => bsPrice("put", { spot: -1, strike: 100, years: 1, rate: 0, volatility: 0.2 })).toThrow(/spot/);
    expect(() => bsPrice("put", { spot: 1, strike: 100, years: Number.NaN, rate: 0, volatility: 0.2 })).toThrow(
      RangeError,
    );
  });
});

describe("put properties", () => {
  it("decreases with spot, increases with strike and volatility", () => {
    fc.assert(
      fc.property(inputs(), fc.double({ min: 0.001, max: 0.5, noNaN: true }), (o, bump) => {
        const p = bsPrice("put", o);
        const eps = 1e-9 * o.strike;
        expect(bsPrice("put", { ...o, spot: o.spot * (1 + bump) })).toBeLessThanOrEqual(p + eps);
        expect(bsPrice("put", { ...o, strike: o.strike * (1 + bump) })).toBeGreaterThanOrEqual(p - eps);
        expect(bsPrice("put", { ...o, volatility: o.volatility + bump })).toBeGreaterThanOrEqual(p - eps);
      }),
    );
  });

  it("stays within the no-arbitrage bounds, with delta in [-1, 0]", () => {
    fc.assert(
      fc.property(inputs(), (o) => {
        const g = bsGreeks("put", o);
        const pvStrike = o.strike * Math.exp(-o.rate * o.years);
        const pvSpot = o.spot * Math.exp(-(o.dividendYield ?? 0) * o.years);
        const eps = 1e-9 * o.strike;
        expect(g.price).toBeGreaterThanOrEqual(Math.max(0, pvStrike - pvSpot) - eps);
        expect(g.price).toBeLessThanOrEqual(pvStrike + eps);
        expect(g.delta).toBeGreaterThanOrEqual(-1);
        expect(g.delta).toBeLessThanOrEqual(0);
        expect(g.gamma).toBeGreaterThanOrEqual(0);
        expect(g.vega).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe("call properties", () => {
  it("increases with spot and volatility, decreases with strike", () => {
    fc.assert(
      fc.property(inputs(), fc.double({ min: 0.001, max: 0.5, noNaN: true }), (o, bump) => {
        const c = bsPrice("call", o);
        const eps = 1e-9 * Math.max(o.spot, o.strike);
        expect(bsPrice("call", { ...o, spot: o.spot * (1 + bump) })).toBeGreaterThanOrEqual(c - eps);
        expect(bsPrice("call", { ...o, strike: o.strike * (1 + bump) })).toBeLessThanOrEqual(c + eps);
        expect(bsPrice("call", { ...o, volatility: o.volatility + bump })).toBeGreaterThanOrEqual(c - eps);
      }),
    );
  });

  it("stays within the no-arbitrage bounds, with delta in [0, 1]", () => {
    fc.assert(
      fc.property(inputs(), (o) => {
        const g = bsGreeks("call", o);
        const pvStrike = o.strike * Math.exp(-o.rate * o.years);
        const pvSpot = o.spot * Math.exp(-(o.dividendYield ?? 0) * o.years);
        const eps = 1e-9 * Math.max(o.spot, o.strike);
        expect(g.price).toBeGreaterThanOrEqual(Math.max(0, pvSpot - pvStrike) - eps);
        expect(g.price).toBeLessThanOrEqual(pvSpot + eps);
        expect(g.delta).toBeGreaterThanOrEqual(0);
        expect(g.delta).toBeLessThanOrEqual(1);
        expect(g.gamma).toBeGreaterThanOrEqual(0);
        expect(g.vega).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("is worth at least as much with more time to expiry when there is no carry (put or call)", () => {
    fc.assert(
      fc.property(
        inputs(),
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        fc.constantFrom("put" as const, "call" as const),
        (o, more, type) => {
          // With no rate and no dividend, more time can only add optionality.
          const flat = { ...o, rate: 0, dividendYield: 0 };
          const eps = 1e-9 * Math.max(o.spot, o.strike);
          expect(bsPrice(type, { ...flat, years: flat.years + more })).toBeGreaterThanOrEqual(
            bsPrice(type, flat) - eps,
          );
        },
      ),
    );
  });
});

function inputs(): fc.Arbitrary<OptionInputs> {
  return fc.record({
    spot: fc.double({ min: 1, max: 2000, noNaN: true }),
    strike: fc.double({ min: 1, max: 2000, noNaN: true }),
    years: fc.double({ min: 0, max: 3, noNaN: true }),
    rate: fc.double({ min: 0, max: 0.1, noNaN: true }),
    dividendYield: fc.double({ min: 0, max: 0.05, noNaN: true }),
    volatility: fc.double({ min: 0, max: 2, noNaN: true }),
  });
}
