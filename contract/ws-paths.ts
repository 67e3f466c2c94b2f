/**
 * docs/product.md#states-live, #calls-websockets: the paths, apart from the message schemas in
 * ws.ts so that a page can name a path without loading zod on first load.
 */
export const WS_STOCK_UPDATES = "/ws/stock-updates";
export const WS_TRADE_UPDATES = "/ws/trade-updates";
export const TRADE_UPDATES_RECONNECT_MS = 5_000;
