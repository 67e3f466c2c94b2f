import type { StockRowStock } from "#app/components/stock-row.tsx";

/** A row of either stock list, as the rows, the delete dialog and the list hook read it. */
export interface ListRow {
  id: number;
  stock: StockRowStock;
  average_iv: number;
  buy_level_one: number;
  buy_level_two: number;
  buy_level_three: number;
  buy_level_four: number;
}
