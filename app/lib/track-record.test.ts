import { describe, expect, it } from "vitest";
import type { LandingStats } from "#contract/track-record.ts";
import { formatDollars, formatReturn, statTiles } from "./track-record.ts";

const stats: LandingStats = {
  simulated: true,
  expired_worthless: { share: 0.8125, count: 4512, first_expiry: "2025-12-05", last_expiry: "2026-11-20" },
  scored: 4512,
  tickers_scored: 4,
  latest_session: { day: "2026-11-23", puts_priced: 1234 },
  stocks_followed: 31,
};

describe("statTiles", () => {
  it("shows the measured figures, each with what it covers", () => {
    expect(statTiles(stats)).toEqual([
      {
        label: "Recommended puts that expired worthless",
        value: "81%",
        detail: "of 4,512 expiring Dec 5, 2025 – Nov 20, 2026 · simulated market",
      },
      {
        label: "Recommendations scored",
        value: "4,512",
        detail: "at their expiry, across 4 tickers · simulated market",
      },
      { label: "Puts priced in the latest session", value: "1,234", detail: "by the engine on Nov 23, 2026" },
      { label: "Stocks followed", value: "31", detail: "on watchlists and the curated list" },
    ]);
  });

  it("shows a dash, not a made-up number, where nothing is measured yet", () => {
    const empty: LandingStats = {
      simulated: false,
      expired_worthless: { share: null, count: 0, first_expiry: null, last_expiry: null },
      scored: 0,
      tickers_scored: 0,
      latest_session: { day: null, puts_priced: 0 },
      stocks_followed: 0,
    };
    const tiles = statTiles(empty);
    expect(tiles[0]).toMatchObject({ value: "—", detail: "None has expired yet" });
    expect(tiles[2]).toMatchObject({ value: "—", detail: "No session priced yet" });
    expect(statTiles(null).map((t) => t.value)).toEqual(["—", "—", "—", "—"]);
  });
});

describe("formatting", () => {
  it("signs returns and dollars", () => {
    expect(formatReturn(-0.03)).toBe("−3.00%");
    expect(formatReturn(0.0124)).toBe("+1.24%");
    expect(formatDollars(-300)).toBe("−$300");
    expect(formatDollars(1234.4)).toBe("+$1,234");
  });
});
