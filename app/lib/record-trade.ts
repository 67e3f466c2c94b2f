// Zod-free, so the option detail links to Add Trade without loading the form's schemas.
/** The "Record this trade" link of a recommended put: Add Trade's options form, filled in at the bid. */
export function recordTradeHref(option: { ticker: string; strike: number; expiry: string; bid: number }): string {
  const search = new URLSearchParams({
    ticker: option.ticker,
    strike: String(option.strike),
    expiry: option.expiry,
    bid: String(option.bid),
    type: "put",
  });
  return `/add-trade?${search}`;
}
