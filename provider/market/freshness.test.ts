import { describe, expect, it } from "vitest";
import { closedMarketBid, isStale, latestSessionClose, latestSessionOpen } from "./freshness.ts";

describe("freshness of a price", () => {
  const wednesdayClose = new Date("2026-11-18T21:00:00Z"); // 16:00 New York

  it("counts the latest session's figures as fresh and older ones as stale", () => {
    // Thursday 08:00 New York, before the open: Wednesday's close is the latest there is.
    expect(isStale(wednesdayClose, new Date("2026-11-19T13:00:00Z"))).toBe(false);
    // Thursday 09:45, within 20 minutes of the open (delayed feeds): still fine.
    expect(isStale(wednesdayClose, new Date("2026-11-19T14:45:00Z"))).toBe(false);
    // Thursday 10:00: Thursday's session has run for half an hour; Wednesday's close is stale.
    expect(isStale(wednesdayClose, new Date("2026-11-19T15:00:00Z"))).toBe(true);
    // Saturday: Friday's session is the latest; Wednesday's close is stale, Friday's is not.
    const saturday = new Date("2026-11-21T17:00:00Z");
    expect(isStale(wednesdayClose, saturday)).toBe(true);
    expect(isStale(new Date("2026-11-20T21:00:00Z"), saturday)).toBe(false);
  });

  it("knows the NYSE holidays without being told: Thanksgiving, the early close and the weekend", () => {
    // Wednesday 2026-11-25 closes at 16:00 New York (21:00Z). Thursday 26 is Thanksgiving (closed);
    // Friday 27 trades 09:30–13:00; Saturday and Sunday are closed; Monday 30 opens at 09:30.
    const wednesdayClose = new Date("2026-11-25T21:00:00Z");
    const thanksgivingNoon = new Date("2026-11-26T17:00:00Z");
    // On Thanksgiving the latest session is Wednesday's, so its close is not stale.
    expect(latestSessionOpen(thanksgivingNoon)).toEqual(new Date("2026-11-25T14:30:00Z"));
    expect(isStale(wednesdayClose, thanksgivingNoon)).toBe(false);
    // Friday 09:40, inside the 20-minute grace after the open: Wednesday's close still counts.
    expect(isStale(wednesdayClose, new Date("2026-11-27T14:40:00Z"))).toBe(false);
    // Saturday: Friday's half session (closed at 13:00 = 18:00Z) is the latest; Wednesday's is stale.
    const saturday = new Date("2026-11-28T17:00:00Z");
    expect(latestSessionClose(saturday)).toEqual(new Date("2026-11-27T18:00:00Z"));
    expect(isStale(wednesdayClose, saturday)).toBe(true);
    expect(isStale(new Date("2026-11-27T18:00:00Z"), saturday)).toBe(false);
    // Sunday night still reads Friday's close as fresh.
    expect(isStale(new Date("2026-11-27T18:00:00Z"), new Date("2026-11-30T02:00:00Z"))).toBe(false);
  });

  it("adds the closed days a vendor's calendar gives to the NYSE holidays", () => {
    // A vendor says Monday 2026-11-30 is closed (say, a national day of mourning).
    const mondayNoon = new Date("2026-11-30T17:00:00Z");
    expect(latestSessionOpen(mondayNoon)).toEqual(new Date("2026-11-30T14:30:00Z"));
    expect(latestSessionOpen(mondayNoon, new Set(["2026-11-30"]))).toEqual(new Date("2026-11-27T14:30:00Z"));
  });
});

describe("the bid of a contract when the market is closed", () => {
  const sessionOpen = new Date("2026-11-18T14:30:00Z");
  const tradedToday = new Date("2026-11-18T16:50:00Z");

  it("keeps a zero bid while the market is open: nobody bids", () => {
    expect(closedMarketBid({ bid: 0, ask: 0.05, last: 0.04, lastTradeAt: tradedToday }, true, sessionOpen)).toEqual({
      bid: 0,
      bidSource: "quote",
    });
  });

  it("after hours takes a same-session last trade, capped at the ask when there is one", () => {
    expect(closedMarketBid({ bid: 0, ask: 0, last: 1.44, lastTradeAt: tradedToday }, false, sessionOpen)).toEqual({
      bid: 1.44,
      bidSource: "last",
    });
    // Last 1.50 above an ask of 1.45: a seller cannot count on more than the ask.
    expect(closedMarketBid({ bid: 0, ask: 1.45, last: 1.5, lastTradeAt: tradedToday }, false, sessionOpen)).toEqual({
      bid: 1.45,
      bidSource: "last",
    });
  });

  it("leaves a zero bid when the last trade is older than the latest session, and a quoted bid as it is", () => {
    const lastWeek = new Date("2026-11-11T16:00:00Z");
    expect(closedMarketBid({ bid: 0, ask: 0, last: 2.1, lastTradeAt: lastWeek }, false, sessionOpen).bid).toBe(0);
    expect(closedMarketBid({ bid: 1.2, ask: 1.3, last: 1.0, lastTradeAt: tradedToday }, false, sessionOpen)).toEqual({
      bid: 1.2,
      bidSource: "quote",
    });
  });
});
