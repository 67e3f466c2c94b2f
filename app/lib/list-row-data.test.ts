import { describe, expect, it } from "vitest";
import type { UipStock, UserStock } from "#contract/entities.ts";
import { uipRows, watchlistRows } from "./list-row-data.ts";

/** The values every list row shows, as the provider sends them and as the row keeps them. */
const SHOWN = { average_iv: 110, buy_level_one: 95, buy_level_two: 90, buy_level_three: 85, buy_level_four: 80 };

/** A row's stock as the row keeps it: the provider's less its id. */
function shownStock(ticker: string): Omit<UserStock["stock"], "id"> {
  return {
    ticker,
    name: `${ticker} Inc.`,
    current_price: 101.5,
    updated_at: "2026-11-24T10:00:00.000Z",
    price_source: "simulated",
  };
}

function userStock(id: number, sortOrder: number, ticker: string): UserStock {
  return {
    id,
    sort_order: sortOrder,
    active: 1,
    generate_recommendation: id % 2 === 0,
    base_iv: 120,
    conservative_iv: 100,
    ...SHOWN,
    stock: { id: id + 100, ...shownStock(ticker) },
  };
}

/** The same stock on the UIP list: in the "Hold" category, the bell on for odd ids. */
function uipStock(id: number, sortOrder: number, ticker: string): UipStock {
  const { generate_recommendation: _notOnUip, ...values } = userStock(id, sortOrder, ticker);
  return { ...values, category_id: 3, category: { id: 3, name: "Hold", icon: "hold" }, price_alert: id % 2 === 1 };
}

describe("watchlistRows", () => {
  it("keeps what a watchlist row shows and posts, and nothing else", () => {
    const [row] = watchlistRows([userStock(4, 0, "AAPL")]);
    expect(row).toEqual({
      id: 4,
      generate_recommendation: true,
      ...SHOWN,
      stock: shownStock("AAPL"),
    });
  });

  it("orders the rows by their saved order, then by id, without reordering its argument", () => {
    const stocks = [userStock(3, 2, "KO"), userStock(9, 1, "MSFT"), userStock(5, 1, "PEP"), userStock(1, 0, "JNJ")];
    expect(watchlistRows(stocks).map((r) => r.stock.ticker)).toEqual(["JNJ", "PEP", "MSFT", "KO"]);
    expect(stocks.map((s) => s.stock.ticker)).toEqual(["KO", "MSFT", "PEP", "JNJ"]);
  });

  it("keeps a row without a price yet as such", () => {
    const stock = userStock(2, 0, "NEW");
    stock.stock.updated_at = null;
    stock.stock.price_source = null;
    const [row] = watchlistRows([stock]);
    expect(row!.stock).toMatchObject({ updated_at: null, price_source: null });
  });
});

describe("uipRows", () => {
  it("keeps what a UIP row, its dialogs and its chips read, and nothing else", () => {
    const [row] = uipRows([uipStock(7, 0, "KO")]);
    expect(row).toEqual({
      id: 7,
      category_id: 3,
      category: { id: 3, name: "Hold", icon: "hold" },
      price_alert: true,
      ...SHOWN,
      stock: shownStock("KO"),
    });
    expect(row).not.toHaveProperty("base_iv");
    expect(row).not.toHaveProperty("sort_order");
    expect(row!.stock).not.toHaveProperty("id");
  });

  it("orders the rows by their saved order, then by id, without reordering its argument", () => {
    const stocks = [uipStock(8, 1, "T"), uipStock(2, 1, "VZ"), uipStock(6, 0, "XOM")];
    expect(uipRows(stocks).map((r) => r.stock.ticker)).toEqual(["XOM", "VZ", "T"]);
    expect(stocks.map((s) => s.stock.ticker)).toEqual(["T", "VZ", "XOM"]);
  });
});
