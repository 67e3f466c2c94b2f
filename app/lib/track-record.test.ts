import { describe, expect, it } from "vitest";
import type { LandingStats } from "#contract/track-record.ts";
import { formatDollars, formatReturn, statTiles } from "./track-record.ts";

const stats: LandingStats = {
  simulated: true,
  returns: {
    count: 4512,
    collateral_days: 1_234_567_800,
    promised: 0.1172,
    realised: 0.0037,
    tbills: 0.0451,
    first_expiry: "2025-12-05",
    last_expiry: "2026-11-20",
    at_mid: 0,
  },
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
        label: "Realised return on the cash set aside",
        value: "+0.37% a year",
        detail:
          "against +11.72% promised and +4.51% in T-bills on the same cash over the same days · 4,512 recommended " +
          "puts expiring Dec 5, 2025 – Nov 20, 2026 · weighted by collateral-days, gross of commission, premium at " +
          "the bid · simulated market",
      },
      {
        label: "Recommended puts that expired worthless",
        value: "81%",
        detail:
          "of 4,512 recommended puts expiring Dec 5, 2025 – Nov 20, 2026; the assigned ones' losses are in the " +
          "realised return · simulated market",
      },
      { label: "Puts priced in the latest session", value: "1,234", detail: "by the engine on Nov 23, 2026" },
      { label: "Stocks followed", value: "31", detail: "on watchlists and the curated list" },
    ]);
  });

  it("shows a dash, not a made-up number, where nothing is measured yet", () => {
    const empty: LandingStats = {
      simulated: false,
      returns: null,
      expired_worthless: { share: null, count: 0, first_expiry: null, last_expiry: null },
      scored: 0,
      tickers_scored: 0,
      latest_session: { day: null, puts_priced: 0 },
      stocks_followed: 0,
    };
    const tiles = statTiles(empty);
    expect(tiles[0]).toMatchObject({ value: "—", detail: "None has expired yet" });
    expect(tiles[1]).toMatchObject({ value: "—", detail: "None has expired yet" });
    expect(tiles[2]).toMatchObject({ value: "—", detail: "No session priced yet" });
    expect(statTiles(null).map((t) => t.value)).toEqual(["—", "—", "—", "—"]);
  });

  it("says how many puts were priced at the mid", () => {
    const tiles = statTiles({ ...stats, simulated: false, returns: { ...stats.returns!, at_mid: 12 } });
    expect(tiles[0]!.detail).toContain("gross of commission, premium at the bid (12 at the mid)");
    expect(tiles[0]!.detail).not.toContain("simulated");
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
