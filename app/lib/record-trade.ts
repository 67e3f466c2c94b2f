// Zod-free, so the option detail links to Add Trade without loading the form's schemas.
/** The query parameters of Add Trade's "Record this trade" link (read by prefillFromSearch). */
export const RECORD_TRADE_PARAM = {
  ticker: "ticker",
  strike: "strike",
  expiry: "expiry",
  bid: "bid",
  type: "type",
} as const;

/** The "Record this trade" link of a recommended put: Add Trade's options form, filled in at the bid. */
export function recordTradeHref(option: { ticker: string; strike: number; expiry: string; bid: number }): string {
  const search = new URLSearchParams({
    [RECORD_TRADE_PARAM.ticker]: option.ticker,
    [RECORD_TRADE_PARAM.strike]: String(option.strike),
    [RECORD_TRADE_PARAM.expiry]: option.expiry,
    [RECORD_TRADE_PARAM.bid]: String(option.bid),
    [RECORD_TRADE_PARAM.type]: "put",
  });
  return `/add-trade?${search}`;
}
