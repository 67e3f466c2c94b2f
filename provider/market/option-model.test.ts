import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { dayNumberOf, isoDateOf, weekdayOf } from "./calendar.ts";
import { listedExpirations, quoteAround, strikeGrid, strikeStep, surfaceVolatility } from "./option-model.ts";

describe("strike grid", () => {
  it("uses the listed spacing for the price", () => {
    expect([5, 12, 60, 150, 228, 890].map(strikeStep)).toEqual([0.5, 1, 2.5, 5, 5, 10]);
  });

  it("spans about −35% to +20% of spot on the step", () => {
    fc.assert(
      fc.property(fc.double({ min: 5, max: 3000, noNaN: true }), (spot) => {
        const grid = strikeGrid(spot);
        const step = strikeStep(spot);
        expect(grid.length).toBeGreaterThan(3);
        expect(grid[0]!).toBeGreaterThanOrEqual(spot * 0.65 - 1e-9);
        expect(grid[0]!).toBeLessThan(spot * 0.65 + step);
        expect(grid.at(-1)!).toBeLessThanOrEqual(spot * 1.2 + 1e-9);
        for (const k of grid) expect(Math.abs(k / step - Math.round(k / step))).toBeLessThan(1e-9);
      }),
    );
  });
});

describe("expirations", () => {
  it("lists eight weeklies and the monthlies out to six months, Fridays unless the exchange is closed", () => {
    const list = listedExpirations(dayNumberOf("2026-11-18"));
    const days = list.map((e) => dayNumberOf(e.expiration));
    // Christmas Day and New Year's Day 2027 are Fridays and holidays: those weeklies expire on the Thursday.
    const thursdays = list.filter((e) => weekdayOf(dayNumberOf(e.expiration)) === 4).map((e) => e.expiration);
    expect(thursdays).toEqual(["2026-12-24", "2026-12-31"]);
    for (const day of days) if (!thursdays.includes(isoDateOf(day))) expect(weekdayOf(day)).toBe(5);
    expect(list.map((e) => e.expiration)).not.toContain("2026-12-25");
    expect(list.map((e) => e.expiration)).not.toContain("2027-01-01");
    expect(days).toEqual([...days].sort((a, b) => a - b));
    expect(list[0]!.expiration).toBe("2026-11-20");
    expect(list.filter((e) => !e.monthly || dayNumberOf(e.expiration) <= days[0]! + 49)).toHaveLength(8);
    expect(list.filter((e) => e.monthly).map((e) => e.expiration)).toEqual([
      "2026-11-20",
      "2026-12-18",
      "2027-01-15",
      "2027-02-19",
      "2027-03-19",
      "2027-04-16",
    ]);
  });
});

describe("quotes", () => {
  it("puts bid ≤ ask in cents around the model, bid ≥ 0.01 when the option has value", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 500, noNaN: true }),
        fc.double({ min: -8, max: 8, noNaN: true }),
        (model, m) => {
          const q = quoteAround(model, m);
          expect(q.bid).toBeLessThanOrEqual(q.ask);
          expect(q.ask).toBeGreaterThanOrEqual(0.01);
          if (model >= 0.02) {
            expect(q.bid).toBeGreaterThanOrEqual(0.01);
            expect(q.bid).toBeLessThanOrEqual(model + 1e-9);
            expect(q.ask).toBeGreaterThanOrEqual(model - 1e-9);
          } else expect(q.bid).toBe(0);
          for (const v of [q.bid, q.ask, q.last]) expect(Math.abs(v * 100 - Math.round(v * 100))).toBeLessThan(1e-6);
        },
      ),
    );
  });
});

describe("volatility surface", () => {
  const base = { volatility: 0.3, deviation: 0, years: 30 / 365, forward: 100, earningsMove: 0 };
  it("skews up for low strikes", () => {
    const iv = (strike: number) => surfaceVolatility({ ...base, strike }).impliedVolatility;
    expect(iv(80)).toBeGreaterThan(iv(90));
    expect(iv(90)).toBeGreaterThan(iv(100));
    expect(iv(100)).toBeCloseTo(0.3 * (0.95 + 0.1 * (30 / 365 / 0.5)), 10);
  });

  it("rises before earnings, most for the nearest expiry", () => {
    const near = { ...base, strike: 100, years: 7 / 365 };
    const far = { ...base, strike: 100, years: 90 / 365 };
    const bump = (s: typeof base & { strike: number }) =>
      surfaceVolatility({ ...s, earningsMove: 0.05 }).impliedVolatility / surfaceVolatility(s).impliedVolatility;
    expect(bump(near)).toBeGreaterThan(bump(far));
    expect(bump(far)).toBeGreaterThan(1);
  });
});
