import { describe, expect, it } from "vitest";
import { NO_LEVELS, type ReferenceLevels } from "./level-flags.ts";
import { chooseReferenceLevels, readerLevels, shownToReader } from "./reference-levels.ts";

const row = (values: Partial<ReferenceLevels>): ReferenceLevels => ({ ...NO_LEVELS, ...values });

// A worked example: three traders flagged the ticker; one left the conservative value and two buy levels unset (0).
const flagged = [
  row({ base_iv: 100, conservative_iv: 80, average_iv: 90, buy_level_one: 70, buy_level_two: 60 }),
  row({ base_iv: 120, conservative_iv: 0, average_iv: 60, buy_level_one: 75 }),
  row({ base_iv: 110, conservative_iv: 90, average_iv: 100, buy_level_one: 72, buy_level_two: 66 }),
];
const own = row({ base_iv: 150, conservative_iv: 130, average_iv: 140, buy_level_one: 120 });
const uip = row({ base_iv: 105, conservative_iv: 95, average_iv: 100, buy_level_four: 50 });

describe("whose levels rank a ticker's puts", () => {
  it("takes the caller's own watchlist row first, whatever else exists", () => {
    expect(chooseReferenceLevels({ own, uip, flagged })).toEqual({ levels: own, source: "caller" });
  });

  it("takes the shared UIP row when the caller has none", () => {
    expect(chooseReferenceLevels({ own: null, uip, flagged })).toEqual({ levels: uip, source: "uip" });
  });

  it("takes the median of the flagging watchlists level by level, counting only the levels set", () => {
    expect(chooseReferenceLevels({ own: null, uip: null, flagged })).toEqual({
      source: "watchlists",
      levels: {
        base_iv: 110, // 100, 110, 120
        conservative_iv: 85, // 80 and 90: the unset 0 does not pull it down
        average_iv: 90, // 60, 90, 100
        buy_level_one: 72, // 70, 72, 75
        buy_level_two: 63, // 60 and 66
        buy_level_three: 0, // set by nobody
        buy_level_four: 0,
      },
    });
  });

  it("ranks with no levels when nobody has the ticker", () => {
    expect(chooseReferenceLevels({ own: null, uip: null, flagged: [] })).toEqual({ levels: NO_LEVELS, source: "none" });
  });

  it("reads values that arrive as text (rows read as JSON) as numbers", () => {
    const asText = { ...own, base_iv: "150" } as unknown as ReferenceLevels;
    expect(chooseReferenceLevels({ own: asText, uip: null, flagged: [] }).levels.base_iv).toBe(150);
  });

  it("shows a reader only their own or the UIP list's values, never other traders' median", () => {
    expect(["caller", "uip", "watchlists", "none"].filter((s) => shownToReader(s as never))).toEqual(["caller", "uip"]);
  });
});

describe("a conservative value of 0 means not set (ADR 0083)", () => {
  // The example: the trader left MSFT's Cons Value empty (stored as 0); the UIP list has 392.36.
  const mine = row({ base_iv: 420, conservative_iv: 0, average_iv: 210, buy_level_one: 400 });
  const shared = row({ base_iv: 430, conservative_iv: 392.36, average_iv: 411.18, buy_level_one: 380 });

  it("takes the UIP list's value in its place, keeping the trader's other levels", () => {
    expect(readerLevels(mine, shared)).toEqual({
      levels: { ...mine, conservative_iv: 392.36 },
      conservativeSource: "uip",
    });
    expect(chooseReferenceLevels({ own: mine, uip: shared, flagged: [] })).toEqual({
      levels: { ...mine, conservative_iv: 392.36 },
      source: "caller",
    });
  });

  it("keeps the trader's own value when set, and says there is none when neither row has one", () => {
    expect(readerLevels(own, uip)).toEqual({ levels: own, conservativeSource: "watchlist" });
    expect(readerLevels(mine, null)).toEqual({ levels: mine, conservativeSource: "none" });
    expect(readerLevels(mine, row({ base_iv: 1 }))).toEqual({ levels: mine, conservativeSource: "none" });
    expect(readerLevels(null, shared)).toEqual({ levels: shared, conservativeSource: "uip" });
    expect(readerLevels(null, null)).toEqual({ levels: null, conservativeSource: "none" });
  });
});
