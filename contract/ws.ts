import { z } from "zod";
import { Timestamp, TopLineRecommendation, TradeRecommendation } from "./entities.ts";

/** docs/product.md#states-live, #calls-websockets: the paths (ws-paths.ts) and their messages. */
export { WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "./ws-paths.ts";

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

const TradeRecommendationsUpdate = z.object({
  type: z.literal("trade_recommendations_update"),
  ticker: z.string().min(1),
  data: z.array(TradeRecommendation),
});

const TopLineUpdate = z.object({
  type: z.literal("trade_recommendations_top_line_update"),
  ticker: z.string().min(1),
  data: TopLineRecommendation,
});

export const TradeUpdate = z.discriminatedUnion("type", [TradeRecommendationsUpdate, TopLineUpdate]);
export type TradeUpdate = z.infer<typeof TradeUpdate>;
