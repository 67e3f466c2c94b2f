import { z } from "zod";
import { TopLineRecommendation, TradeRecommendation } from "./entities.ts";

/** docs/product.md#states-live, #calls-websockets: the paths (ws-paths.ts) and their messages. */
export { WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "./ws-paths.ts";

export { PriceQuote, StockPriceUpdate } from "./ws-prices.ts";

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
