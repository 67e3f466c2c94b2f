import { describe, expect, it } from "vitest";
import {
  filterByTicker,
  moveItem,
  moveOne,
  orderPayload,
  parseOrder,
  swipeOutcome,
  swipeState,
  withinTolerance,
} from "./stock-list.ts";

const rows = ["AAPL", "MSFT", "PYPL", "KO"].map((ticker) => ({ stock: { ticker } }));

describe("filterByTicker (docs/product.md#screens-watchlist)", () => {
  it("matches part of the ticker, case-insensitive", () => {
    expect(filterByTicker(rows, "p").map((r) => r.stock.ticker)).toEqual(["AAPL", "PYPL"]);
    expect(filterByTicker(rows, " ms ").map((r) => r.stock.ticker)).toEqual(["MSFT"]);
  });

  it("keeps every row for an empty query and none for a miss", () => {
    expect(filterByTicker(rows, "")).toHaveLength(4);
    expect(filterByTicker(rows, "zzz")).toHaveLength(0);
  });
});

describe("reorder", () => {
  it("moves an item from one index to another", () => {
    expect(moveItem([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
    expect(moveItem([1, 2, 3, 4], 3, 0)).toEqual([4, 1, 2, 3]);
    expect(moveItem([1, 2, 3], 5, 0)).toEqual([1, 2, 3]);
  });

  it("moves one place up or down and stops at the ends", () => {
    expect(moveOne([1, 2, 3], 2, "up")).toEqual([2, 1, 3]);
    expect(moveOne([1, 2, 3], 2, "down")).toEqual([1, 3, 2]);
    expect(moveOne([1, 2, 3], 1, "up")).toEqual([1, 2, 3]);
    expect(moveOne([1, 2, 3], 3, "down")).toEqual([1, 2, 3]);
    expect(moveOne([1, 2, 3], 9, "down")).toEqual([1, 2, 3]);
  });

  it("sends sort_order as each row's index with active 1 (docs/product.md#calls-stocks)", () => {
    expect(orderPayload([7, 3])).toEqual([
      { id: 7, sort_order: 0, active: 1 },
      { id: 3, sort_order: 1, active: 1 },
    ]);
  });

  it("reads a posted order and refuses anything else", () => {
    expect(parseOrder("3, 1,2")).toEqual([3, 1, 2]);
    expect(parseOrder("")).toBeNull();
    expect(parseOrder("1,1")).toBeNull();
    expect(parseOrder("1,x")).toBeNull();
    expect(parseOrder("0")).toBeNull();
    expect(parseOrder(null)).toBeNull();
  });
});

describe("gestures (docs/product.md#states-lists, #constants-gestures)", () => {
  it("shows the swipe background from 80 px", () => {
    expect(swipeState(-79)).toBe("idle");
    expect(swipeState(-80)).toBe("hint-left");
    expect(swipeState(80)).toBe("hint-right");
  });

  it("acts only past 100 px", () => {
    expect(swipeOutcome(-100)).toBeNull();
    expect(swipeOutcome(-101)).toBe("left");
    expect(swipeOutcome(101)).toBe("right");
    expect(swipeOutcome(40)).toBeNull();
  });

  it("keeps a long press under 10 px of movement", () => {
    expect(withinTolerance(6, 7)).toBe(true);
    expect(withinTolerance(6, 8)).toBe(false);
    expect(withinTolerance(0, 10)).toBe(false);
  });
});
