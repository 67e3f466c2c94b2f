import type { Stock, UipStock, UserStock } from "#contract/entities.ts";

/**
 * What a list page sends the browser for each row: the fields the row shows and its controls
 * post, not the whole entity. The loader's data travels twice in a server-rendered page (as
 * markup and as the hydration data that follows it), so every field a row does not use is paid
 * for on each render and each page load (docs/decisions/0045-lean-list-pages-and-one-call-path.md).
 */
type RowStock = Pick<Stock, "ticker" | "name" | "current_price" | "updated_at" | "price_source">;

/** What every list row shows: the stock, its average IV and its four buy levels. */
type RowValues = Pick<
  UserStock,
  "average_iv" | "buy_level_one" | "buy_level_two" | "buy_level_three" | "buy_level_four"
> & {
  stock: RowStock;
};

/** A watchlist row as /user-stocks shows it (docs/product.md#screens-watchlist). */
export type WatchlistRow = Pick<UserStock, "id" | "generate_recommendation"> & RowValues;

/**
 * A UIP row as /uip-stocks shows it (docs/product.md#screens-uip-list): besides the values, its
 * category (badge, chip filter and counts) and the user's price-alert bell. The add-to-watchlist
 * dialog reads the same values; the action copies the provider's row, not this one.
 */
export type UipRow = Pick<UipStock, "id" | "category_id" | "category" | "price_alert"> & RowValues;

/** A list's rows in their saved order (sort_order, then id), without reordering the argument. */
function inSavedOrder<Row extends { id: number; sort_order: number }>(rows: readonly Row[]): Row[] {
  return [...rows].sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
}

/** The watchlist's rows in their saved order (sort_order, then id), each cut to what the row shows. */
export function watchlistRows(stocks: readonly UserStock[]): WatchlistRow[] {
  return inSavedOrder(stocks).map((row) => ({
    id: row.id,
    generate_recommendation: row.generate_recommendation,
    ...rowValues(row),
  }));
}

/** The UIP list's rows in their saved order (sort_order, then id), each cut to what the row shows. */
export function uipRows(stocks: readonly UipStock[]): UipRow[] {
  return inSavedOrder(stocks).map((row) => ({
    id: row.id,
    category_id: row.category_id,
    category: { id: row.category.id, name: row.category.name, icon: row.category.icon },
    price_alert: row.price_alert,
    ...rowValues(row),
  }));
}

function rowValues(row: UserStock | UipStock): RowValues {
  return {
    average_iv: row.average_iv,
    buy_level_one: row.buy_level_one,
    buy_level_two: row.buy_level_two,
    buy_level_three: row.buy_level_three,
    buy_level_four: row.buy_level_four,
    stock: rowStock(row.stock),
  };
}

function rowStock(stock: Stock): RowStock {
  return {
    ticker: stock.ticker,
    name: stock.name,
    current_price: stock.current_price,
    updated_at: stock.updated_at,
    price_source: stock.price_source,
  };
}
