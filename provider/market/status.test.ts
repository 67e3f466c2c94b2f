import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { marketNote } from "#app/routes/shell/market-note.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { nextSessionOpen } from "./calendar.ts";
import { createSimulatedMarket } from "./simulated.ts";
import { marketStatus } from "./status.ts";
import { FAKE_TRADIER_TOKEN, startTradierFake, type TradierFake } from "./testing/tradier-fake.ts";
import { vendor } from "./testing/yahoo-replay.ts";
import { createTradierMarket } from "./tradier.ts";
import { createYahooMarket } from "./yahoo.ts";

/**
 * The line beside the Live dot (docs/product.md#states-market, ADR 0037): the demo market replays
 * while closed; a live source never does, and the screens say when the market opens next.
 */
const SATURDAY_NOON = new Date("2026-11-21T17:00:00Z");
const THANKSGIVING_NOON = new Date("2026-11-26T17:00:00Z");
const WEDNESDAY_NOON = new Date("2026-11-18T17:00:00Z");

let fake: TradierFake;
beforeAll(async () => {
  fake = await startTradierFake(() => WEDNESDAY_NOON);
});
afterAll(() => fake.close());

describe("the next open", () => {
  it("skips weekends and NYSE holidays, and is today's before the open", () => {
    expect(nextSessionOpen(SATURDAY_NOON)).toEqual(new Date("2026-11-23T14:30:00Z")); // Monday 09:30
    expect(nextSessionOpen(THANKSGIVING_NOON)).toEqual(new Date("2026-11-27T14:30:00Z")); // Black Friday 09:30
    expect(nextSessionOpen(new Date("2026-11-18T12:00:00Z"))).toEqual(new Date("2026-11-18T14:30:00Z")); // 07:00
    // Friday 2026-12-25 is Christmas: Thursday evening's next open is Monday 28th.
    expect(nextSessionOpen(new Date("2026-12-24T23:00:00Z"))).toEqual(new Date("2026-12-28T14:30:00Z"));
  });
});

describe("a live source when the market is closed", () => {
  const live = () => [
    createYahooMarket({ fetch: vendor({}).fetch, now: () => SATURDAY_NOON }),
    createTradierMarket({ token: FAKE_TRADIER_TOKEN, baseUrl: fake.baseUrl, now: () => SATURDAY_NOON }),
  ];

  it("does not replay, and the screens say when it opens next", () => {
    for (const market of live()) {
      expect(market.replaysWhenClosed).toBeFalsy();
      const status = marketStatus(market, SATURDAY_NOON);
      expect(status).toEqual({
        source: market.source,
        open: false,
        replaying: false,
        next_open: "2026-11-23T14:30:00.000Z",
        now: SATURDAY_NOON.toISOString(),
      });
      expect(marketNote(status)).toBe("Market closed · opens Mon 09:30 ET");
      expect(marketNote(marketStatus(market, THANKSGIVING_NOON))).toBe("Market closed · opens Fri 09:30 ET");
    }
  });

  it("says nothing beside the Live dot while the market is open", () => {
    for (const market of live()) {
      const status = marketStatus(market, WEDNESDAY_NOON);
      expect(status).toMatchObject({ open: true, replaying: false, next_open: null });
      expect(marketNote(status)).toBeNull();
    }
  });
});

describe("the demo market when the market is closed", () => {
  it("says it is replaying a session", () => {
    const demo = createSimulatedMarket({ seed: 1, tickers: DEMO_TICKERS, replayWhenClosed: true });
    const status = marketStatus(demo, SATURDAY_NOON);
    expect(status).toMatchObject({ source: "simulated", open: false, replaying: true });
    expect(marketNote(status)).toBe("Demo market: replaying a session");
    expect(marketNote(marketStatus(demo, WEDNESDAY_NOON))).toBeNull();
  });
});
