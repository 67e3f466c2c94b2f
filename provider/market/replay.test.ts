import { describe, expect, it } from "vitest";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { replaySession } from "./replay.ts";
import { createSimulatedMarket } from "./simulated.ts";

/**
 * The demo market (ADR 0037): while NYSE is closed the simulated market replays its latest session
 * at real speed, so prices move at any hour; while open it is the plain simulated market.
 */
// Saturday 2026-11-21 12:00 New York (EST, UTC−5); the latest session is Friday 20th, a full day.
const SATURDAY_NOON = new Date("2026-11-21T17:00:00Z");
const minutesLater = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

function markets(at: () => Date) {
  return {
    demo: createSimulatedMarket({ seed: 1, tickers: DEMO_TICKERS, now: at, replayWhenClosed: true }),
    plain: createSimulatedMarket({ seed: 1, tickers: DEMO_TICKERS, now: at }),
  };
}

describe("the replayed moment", () => {
  it("plays the latest session from its open, at real speed, looping", () => {
    // 20 hours since Friday's 16:00 close = 1200 minutes; 1200 mod 390 = 30: Friday's 10:00.
    const s = replaySession(SATURDAY_NOON);
    expect(s.fraction).toBeCloseTo(30 / 390, 12);
    expect(s.asOf).toEqual(SATURDAY_NOON);
    // A minute later it is a minute further into the session.
    expect(replaySession(minutesLater(SATURDAY_NOON, 1)).fraction).toBeCloseTo(31 / 390, 12);
    expect(replaySession(minutesLater(SATURDAY_NOON, 1)).day).toBe(s.day);
  });

  it("replays a 13:00 early close's shorter session (Black Friday 2026-11-27, 210 minutes)", () => {
    // Saturday 28th 12:00 New York: 23 hours since Friday's 13:00 close = 1380 minutes; 1380 mod 210 = 120.
    expect(replaySession(new Date("2026-11-28T17:00:00Z")).fraction).toBeCloseTo(120 / 210, 12);
  });
});

describe("the demo market", () => {
  it("moves while the exchange is closed, quotes and chains alike, and says it is replaying", async () => {
    let clock = SATURDAY_NOON;
    const { demo, plain } = markets(() => clock);
    const first = await demo.quote("AAPL");
    const chain = await demo.optionChain("AAPL");
    expect(first).toMatchObject({ source: "simulated", replay: true, stale: false, asOf: SATURDAY_NOON });
    expect(chain).toMatchObject({ spot: first.price, replay: true, asOf: SATURDAY_NOON });
    // Five minutes later the price has moved (a path in cents over five minutes of a session).
    clock = minutesLater(SATURDAY_NOON, 5);
    const later = await demo.quote("AAPL");
    expect(later.price).not.toBe(first.price);
    expect(later.asOf).toEqual(clock);
    // The plain simulated market stands at Friday's close and does not move.
    const close = await plain.quote("AAPL");
    clock = SATURDAY_NOON;
    expect((await plain.quote("AAPL")).price).toBe(close.price);
    expect(close.replay).toBeUndefined();
    expect(close.asOf).toEqual(new Date("2026-11-20T21:00:00Z"));
  });

  it("keeps the real sessions in its history, and a back-test's clock never replays", async () => {
    const { demo, plain } = markets(() => SATURDAY_NOON);
    expect(await demo.dailyHistory("MSFT", 10)).toEqual(await plain.dailyHistory("MSFT", 10));
    const past = demo.withClock(() => SATURDAY_NOON);
    expect(past.replaysWhenClosed).toBe(false);
    expect(await past.quote("MSFT")).toEqual(await plain.quote("MSFT"));
  });

  it("is the plain simulated market while the exchange is open", async () => {
    const wednesdayNoon = new Date("2026-11-18T17:00:00Z");
    const { demo, plain } = markets(() => wednesdayNoon);
    expect(await demo.quote("KO")).toEqual(await plain.quote("KO"));
    expect((await demo.quote("KO")).replay).toBeUndefined();
  });
});
