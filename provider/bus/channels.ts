/**
 * Bus channels. The first two carry the websocket messages of contract/ws.ts for one websocket
 * path each, so the websocket server only relays what it receives.
 */

/** `trade_recommendations_update` and `trade_recommendations_top_line_update` (contract/ws.ts TradeUpdate), for /ws/trade-updates. */
export const TRADE_UPDATES_CHANNEL = "trade_updates";

/** `stock_price_update` (contract/ws.ts StockPriceUpdate), for /ws/stock-updates: published by the price-refresh job. */
export const STOCK_UPDATES_CHANNEL = "stock_updates";

/** `{ user_id }`: that user's sessions ended (sign-out, password reset); each process drops its cached callers (auth/caller-cache.ts). */
export const SESSIONS_CHANNEL = "sessions_ended";
