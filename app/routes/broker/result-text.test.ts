import { describe, expect, test } from "vitest";
import type { SyncResult } from "#contract/broker-sync.ts";
import { syncResultText } from "./result-text.ts";

const base: SyncResult = {
  at: "2026-11-28T17:00:00.000Z",
  added: 6,
  already: 0,
  not_trades: 3,
  refused: 0,
  refusals: [],
  openings: 0,
  positions: 2,
  truncated: false,
};

describe("syncResultText", () => {
  test("a first sync counts what it added, like the import preview", () => {
    expect(syncResultText(base)).toBe("6 trades added, 0 already there, 3 lines not trades");
  });
  test("a second sync says nothing is new", () => {
    expect(syncResultText({ ...base, added: 0, already: 6 })).toBe("Nothing new, 6 already there, 3 lines not trades");
  });
  test("one of each is singular; refusals and openings are named when there are some", () => {
    expect(syncResultText({ ...base, added: 1, already: 1, not_trades: 1, refused: 2, openings: 1 })).toBe(
      "1 trade added, 1 already there, 1 line not a trade, 2 lines refused, 1 position opened before the history",
    );
  });
});
