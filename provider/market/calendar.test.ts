import { describe, expect, it } from "vitest";
import {
  dayNumberOf,
  dayNumberOfTradingIndex,
  isMarketOpen,
  isoDateOf,
  nyInstant,
  sessionAt,
  thirdFriday,
  tradingIndexOf,
  weekdayOf,
  yearsToExpiry,
} from "./calendar.ts";

describe("market calendar (New York)", () => {
  it("knows the regular session in winter and in summer time", () => {
    // 2026-11-18 is a Wednesday in EST (UTC−5); 2026-07-15 a Wednesday in EDT (UTC−4).
    expect(isMarketOpen(new Date("2026-11-18T14:29:59Z"))).toBe(false);
    expect(isMarketOpen(new Date("2026-11-18T14:30:00Z"))).toBe(true);
    expect(isMarketOpen(new Date("2026-11-18T20:59:59Z"))).toBe(true);
    expect(isMarketOpen(new Date("2026-11-18T21:00:00Z"))).toBe(false);
    expect(isMarketOpen(new Date("2026-07-15T13:30:00Z"))).toBe(true);
    expect(isMarketOpen(new Date("2026-07-15T20:00:00Z"))).toBe(false);
    expect(isMarketOpen(new Date("2026-11-21T16:00:00Z"))).toBe(false); // Saturday
  });

  it("converts New York wall time to instants across daylight saving", () => {
    expect(nyInstant(dayNumberOf("2026-11-18"), 16 * 60).toISOString()).toBe("2026-11-18T21:00:00.000Z");
    expect(nyInstant(dayNumberOf("2026-07-15"), 9 * 60 + 30).toISOString()).toBe("2026-07-15T13:30:00.000Z");
    // DST ends on 2026-11-01 at 02:00: the close that day is already EST.
    expect(nyInstant(dayNumberOf("2026-11-02"), 16 * 60).toISOString()).toBe("2026-11-02T21:00:00.000Z");
  });

  it("numbers trading days without weekends", () => {
    const friday = dayNumberOf("2026-11-20");
    expect(weekdayOf(friday)).toBe(5);
    expect(tradingIndexOf(friday + 3)).toBe(tradingIndexOf(friday) + 1); // Monday follows Friday
    expect(tradingIndexOf(friday + 1)).toBe(tradingIndexOf(friday)); // Saturday reads as Friday
    for (let day = friday - 30; day < friday + 30; day++) {
      if (weekdayOf(day) % 6 !== 0) expect(dayNumberOfTradingIndex(tradingIndexOf(day))).toBe(day);
    }
  });

  it("says which session applies: the live one while open, else the last close", () => {
    const open = sessionAt(new Date("2026-11-18T17:45:00Z")); // 12:45 EST, halfway
    expect(open.fraction).toBeCloseTo(0.5, 10);
    expect(isoDateOf(dayNumberOfTradingIndex(open.day))).toBe("2026-11-18");
    const early = sessionAt(new Date("2026-11-18T13:00:00Z")); // 08:00, before the open
    expect(isoDateOf(dayNumberOfTradingIndex(early.day))).toBe("2026-11-17");
    expect(early).toMatchObject({ fraction: 1, asOf: new Date("2026-11-17T21:00:00Z") });
    const weekend = sessionAt(new Date("2026-11-22T18:00:00Z")); // Sunday
    expect(isoDateOf(dayNumberOfTradingIndex(weekend.day))).toBe("2026-11-20");
    expect(weekend.asOf).toEqual(new Date("2026-11-20T21:00:00Z"));
  });

  it("measures time to expiry to 16:00 New York on the expiration date", () => {
    expect(yearsToExpiry(new Date("2026-11-20T20:00:00Z"), "2026-11-20")).toBeCloseTo(1 / (365 * 24), 12);
    expect(yearsToExpiry(new Date("2026-11-20T21:00:00Z"), "2026-11-27")).toBeCloseTo(7 / 365, 12);
    expect(yearsToExpiry(new Date("2026-11-21T00:00:00Z"), "2026-11-20")).toBe(0);
  });

  it("finds the third Friday", () => {
    expect(isoDateOf(thirdFriday(2026, 11))).toBe("2026-12-18");
    expect(isoDateOf(thirdFriday(2026, 12))).toBe("2027-01-15"); // month index rolls into next year
    expect(isoDateOf(thirdFriday(2027, 9))).toBe("2027-10-15");
  });
});
