import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { normCdf, normPdf } from "./normal.ts";

describe("normCdf", () => {
  // Reference values from high-precision tables (R: pnorm).
  const table: [number, number][] = [
    [0, 0.5],
    [0.5, 0.6914624612740131],
    [1, 0.8413447460685429],
    [-1.96, 0.024997895148220435],
    [2.3263478740408408, 0.99],
    [3, 0.9986501019683699],
    [-5, 2.866515718791939e-7],
    [-8, 6.220960574271785e-16],
    [10, 1],
  ];
  it.each(table)("N(%d) matches the table to 1e-12", (x, expected) => {
    expect(Math.abs(normCdf(x) - expected)).toBeLessThan(1e-12);
  });

  it("is symmetric and monotone", () => {
    fc.assert(
      fc.property(fc.double({ min: -40, max: 40, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true }), (x, h) => {
        expect(Math.abs(normCdf(x) + normCdf(-x) - 1)).toBeLessThan(1e-14);
        expect(normCdf(x + h)).toBeGreaterThanOrEqual(normCdf(x));
      }),
    );
  });

  it("agrees with the integral of the density", () => {
    // Simpson's rule from 0 to x, plus one half.
    for (const x of [-3.3, -1.2, 0.4, 2.7]) {
      const n = 2000;
      const h = x / n;
      let sum = normPdf(0) + normPdf(x);
      for (let i = 1; i < n; i++) sum += (i % 2 ? 4 : 2) * normPdf(i * h);
      expect(Math.abs(0.5 + (sum * h) / 3 - normCdf(x))).toBeLessThan(1e-10);
    }
  });
});
