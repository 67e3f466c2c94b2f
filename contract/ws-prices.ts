import { z } from "zod";
import { Timestamp } from "./timestamp.ts";

/**
 * docs/product.md#states-live: the messages of /ws/stock-updates (contract/ws.ts re-exports them).
 * Apart from the entities, so a list page that checks its quotes loads zod and these schemas only.
 */
export const PriceQuote = z.object({
  ticker: z.string().min(1),
  current_price: z.number(),
  updated_at: Timestamp,
});
export type PriceQuote = z.infer<typeof PriceQuote>;

/**
 * `data` is either one quote (replace that ticker's price) or an array of quotes
 * (the whole list: replace every matching ticker's price).
 */
export const StockPriceUpdate = z.object({
  type: z.literal("stock_price_update"),
  data: z.union([z.array(PriceQuote), PriceQuote]),
});
export type StockPriceUpdate = z.infer<typeof StockPriceUpdate>;
