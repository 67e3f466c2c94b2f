import { describe, expect, it } from "vitest";
import type { DailyBar } from "#provider/market/port.ts";
import { lastClosedSession, settlingBar } from "./store.ts";

const bar = (time: string, close: number): DailyBar => ({
  time,
  open: close,
  high: close,
  low: close,
  close,
  volume: 1,
});

describe("settlingBar", () => {
  const bars = [bar("2026-04-01", 101), bar("2026-04-02", 99), bar("2026-04-06", 97)];

  it("takes the expiry day's close", () => {
    expect(settlingBar(bars, "2026-04-02")?.close).toBe(99);
  });

  it("takes the last close before an expiry that fell on a holiday (Good Friday, 3 April 2026)", () => {
    expect(settlingBar(bars, "2026-04-03")?.close).toBe(99);
  });

  it("finds none when the history has no close within the week before the expiry", () => {
    expect(settlingBar(bars, "2026-03-20")).toBeUndefined();
    expect(settlingBar([bar("2026-03-01", 90)], "2026-04-02")).toBeUndefined();
  });
});

describe("lastClosedSession", () => {
  it("is today once the 16:00 New York close has passed, else the session before", () => {
    // Wednesday 1 April 2026: 15:59 and 16:01 in New York (EDT, UTC−4).
    expect(lastClosedSession(new Date("2026-04-01T19:59:00Z"))).toBe("2026-03-31");
    expect(lastClosedSession(new Date("2026-04-01T20:01:00Z"))).toBe("2026-04-01");
    // Sunday 5 April: Thursday's close, as Friday 3 April 2026 is Good Friday (the exchange is shut).
    expect(lastClosedSession(new Date("2026-04-05T15:00:00Z"))).toBe("2026-04-02");
    // Sunday 12 April: Friday's close.
    expect(lastClosedSession(new Date("2026-04-12T15:00:00Z"))).toBe("2026-04-10");
  });
});
