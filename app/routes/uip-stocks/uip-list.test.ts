import { describe, expect, it } from "vitest";
import type { Category } from "#contract/entities.ts";
import {
  ALL_CATEGORIES_ID,
  BELOW_IV_ID,
  categoryChips,
  chosenCategory,
  filterByCategory,
  isBelowIv,
} from "./uip-list.ts";

const categories: Category[] = [
  { id: 3, name: "Queen", icon: "queen" },
  { id: 7, name: "Avoid", icon: "avoid" },
];

const row = (ticker: string, category_id: number, price: number, average_iv: number) => ({
  category_id,
  average_iv,
  stock: { ticker, current_price: price },
});
const rows = [row("AAPL", 3, 200, 250), row("INTC", 7, 30, 20), row("MSFT", 3, 400, 400), row("PFE", 7, 10, 10.01)];
const tickers = (list: { stock: { ticker: string } }[]) => list.map((r) => r.stock.ticker);

describe("category chips (docs/product.md#screens-uip-list)", () => {
  it("are 'All Categories' (-1), 'Below IV' (-2) and then every category", () => {
    expect(categoryChips(categories)).toEqual([
      { id: -1, name: "All Categories", icon: null },
      { id: -2, name: "Below IV", icon: null },
      { id: 3, name: "Queen", icon: "queen" },
      { id: 7, name: "Avoid", icon: "avoid" },
    ]);
    expect(categoryChips([]).map((c) => c.name)).toEqual(["All Categories", "Below IV"]);
  });

  it("read the chosen chip from the URL, falling back to 'All Categories'", () => {
    const chips = categoryChips(categories);
    expect(chosenCategory(null, chips)).toBe(ALL_CATEGORIES_ID);
    expect(chosenCategory("-2", chips)).toBe(BELOW_IV_ID);
    expect(chosenCategory("7", chips)).toBe(7);
    expect(chosenCategory("99", chips)).toBe(ALL_CATEGORIES_ID);
    expect(chosenCategory("queen", chips)).toBe(ALL_CATEGORIES_ID);
    expect(chosenCategory("", chips)).toBe(ALL_CATEGORIES_ID);
  });
});

describe("filterByCategory", () => {
  it("keeps every row for 'All Categories', in order", () => {
    expect(tickers(filterByCategory(rows, ALL_CATEGORIES_ID))).toEqual(["AAPL", "INTC", "MSFT", "PFE"]);
  });

  it("'Below IV' keeps rows whose price is strictly below the average IV", () => {
    expect(tickers(filterByCategory(rows, BELOW_IV_ID))).toEqual(["AAPL", "PFE"]);
    expect(isBelowIv(row("X", 1, 400, 400))).toBe(false);
  });

  it("a category keeps its own rows only", () => {
    expect(tickers(filterByCategory(rows, 7))).toEqual(["INTC", "PFE"]);
    expect(filterByCategory(rows, 42)).toEqual([]);
  });
});
