/**
 * The intents the two stock lists' forms post. The list components here post them and each list's
 * route handles them (its action's switch, its offline policy), so they live with what both share.
 */
export const WATCHLIST_INTENTS = ["toggle", "delete", "reorder", "move"] as const;
export type WatchlistIntent = (typeof WATCHLIST_INTENTS)[number];

export const UIP_INTENTS = ["alert", "delete", "watchlist", "reorder", "move"] as const;
export type UipIntent = (typeof UIP_INTENTS)[number];

/** Look the company up (no JavaScript), or add the stock: both add pages. */
export const ADD_STOCK_INTENTS = ["lookup", "create"] as const;
export type AddStockIntent = (typeof ADD_STOCK_INTENTS)[number];
