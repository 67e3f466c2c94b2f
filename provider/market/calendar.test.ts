import { describe, expect, it } from "vitest";
import {
  closeMinuteOf,
  dayNumberOf,
  holidayName,
  isEarlyClose,
  isTradingDay,
  nyseHolidays,
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
    expect(yearsToExpiry(new Date("2026-11-13T21:00:00Z"), "2026-11-20")).toBeCloseTo(7 / 365, 12);
    // 27 November 2026 closes at 13:00 (the day after Thanksgiving): three hours short of a week.
    expect(yearsToExpiry(new Date("2026-11-20T21:00:00Z"), "2026-11-27")).toBeCloseTo((7 * 24 - 3) / (365 * 24), 12);
    expect(yearsToExpiry(new Date("2026-11-21T00:00:00Z"), "2026-11-20")).toBe(0);
  });

  it("finds the third Friday", () => {
    expect(isoDateOf(thirdFriday(2026, 11))).toBe("2026-12-18");
    expect(isoDateOf(thirdFriday(2026, 12))).toBe("2027-01-15"); // month index rolls into next year
    expect(isoDateOf(thirdFriday(2027, 9))).toBe("2027-10-15");
  });

  // The exchange's published lists. Checked by hand against the rules: 2026 — New Year Thu, MLK the
  // 3rd Monday of January (5, 12, 19), Presidents the 3rd Monday of February (2, 9, 16), Easter
  // 5 April so Good Friday 3 April, Memorial the last Monday of May (31 May is a Sunday), Juneteenth
  // a Friday, 4 July a Saturday so Friday 3 July, Labor the 1st Monday of September, Thanksgiving
  // the 4th Thursday of November (5, 12, 19, 26), Christmas a Friday. 2027 — Easter 28 March so Good
  // Friday 26 March; Juneteenth a Saturday (Friday 18 June), 4 July a Sunday (Monday 5 July),
  // Christmas a Saturday (Friday 24 December); 1 January 2028 is a Saturday and is not moved back
  // into 2027.
  const published = {
    2026: [
      "2026-01-01",
      "2026-01-19",
      "2026-02-16",
      "2026-04-03",
      "2026-05-25",
      "2026-06-19",
      "2026-07-03",
      "2026-09-07",
      "2026-11-26",
      "2026-12-25",
    ],
    2027: [
      "2027-01-01",
      "2027-01-18",
      "2027-02-15",
      "2027-03-26",
      "2027-05-31",
      "2027-06-18",
      "2027-07-05",
      "2027-09-06",
      "2027-11-25",
      "2027-12-24",
    ],
  };

  it("closes on the NYSE holidays published for 2026 and 2027, and on no other weekday", () => {
    for (const [year, days] of Object.entries(published)) {
      expect([...nyseHolidays(Number(year)).keys()].sort((a, b) => a - b).map(isoDateOf)).toEqual(days);
      const first = dayNumberOf(`${year}-01-01`);
      const last = dayNumberOf(`${year}-12-31`);
      let tradingDays = 0;
      for (let day = first; day <= last; day++) if (isTradingDay(day)) tradingDays++;
      // 261 weekdays in 2026 and in 2027, less ten holidays each.
      expect(tradingDays).toBe(251);
    }
    expect(holidayName(dayNumberOf("2027-12-31"))).toBeNull(); // New Year 2028 falls on a Saturday
    expect(holidayName(dayNumberOf("2026-07-03"))).toBe("Independence Day");
    expect(isMarketOpen(new Date("2026-12-25T15:00:00Z"))).toBe(false); // 10:00 on Christmas Day
    expect(isMarketOpen(new Date("2027-01-01T15:00:00Z"))).toBe(false);
  });

  it("closes at 13:00 on Black Friday, Christmas Eve and a trading 3 July", () => {
    const early = ["2026-11-27", "2026-12-24", "2027-07-02", "2027-11-26", "2028-07-03"];
    expect(early.map((d) => isEarlyClose(dayNumberOf(d)))).toEqual([true, true, false, true, true]);
    // 2027: 3 July is a Saturday (no early close on Friday 2 July); 24 December is the holiday itself.
    expect(isEarlyClose(dayNumberOf("2027-12-24"))).toBe(false);
    expect(closeMinuteOf(dayNumberOf("2026-11-27"))).toBe(13 * 60);
    // Friday 27 November 2026, EST: open at 13:59 UTC (08:59 — no), 17:59 UTC (12:59), closed at 18:00 UTC.
    expect(isMarketOpen(new Date("2026-11-27T17:59:00Z"))).toBe(true);
    expect(isMarketOpen(new Date("2026-11-27T18:00:00Z"))).toBe(false);
    const after = sessionAt(new Date("2026-11-27T19:00:00Z"));
    expect(after).toMatchObject({ fraction: 1, asOf: new Date("2026-11-27T18:00:00Z") });
    // An option expiring that day stops at 13:00.
    expect(yearsToExpiry(new Date("2026-11-27T17:00:00Z"), "2026-11-27")).toBeCloseTo(1 / (365 * 24), 12);
  });

  it("on a holiday, the session in force is the trading day before", () => {
    // Friday 3 April 2026 (Good Friday), noon: Thursday's close.
    const goodFriday = sessionAt(new Date("2026-04-03T16:00:00Z"));
    expect(isoDateOf(dayNumberOfTradingIndex(goodFriday.day))).toBe("2026-04-02");
    expect(goodFriday).toMatchObject({ fraction: 1, asOf: new Date("2026-04-02T20:00:00Z") });
    // Tuesday 8 September 2026 before the open: Monday was Labor Day, so Friday 4 September's close.
    const tuesdayEarly = sessionAt(new Date("2026-09-08T12:00:00Z"));
    expect(isoDateOf(dayNumberOfTradingIndex(tuesdayEarly.day))).toBe("2026-09-04");
  });
});
