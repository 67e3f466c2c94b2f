/** The forms of the journal's screens, one intent each; the actions switch on them (app/routes/add-trade/server.ts). */
export const TRADE_INTENTS = ["save-stock", "save-option", "delete", "preview-import", "import"] as const;
export type TradeIntent = (typeof TRADE_INTENTS)[number];
