import type { HrefWithSearch } from "#app/lib/href.ts";
// Zod-free, so the option detail links to Add Trade without loading the form's schemas.
/**
 * The link's texts (docs/product.md#screens-option-detail). Kept here, not in the message catalogue,
 * which every list page loads first: /user-stocks sits at its 130 kB first-load budget.
 */
export const RECORD_TRADE_TEXT = {
  link: "Record this trade",
  hint: "Sold it? Log it in your journal at the bid, ready to edit.",
} as const;

/** The query parameters of Add Trade's "Record this trade" link (read by prefillFromSearch). */
export const RECORD_TRADE_PARAM = {
  ticker: "ticker",
  strike: "strike",
  expiry: "expiry",
  bid: "bid",
  type: "type",
  /** Contracts the trader's plan allows (ADR 0081); absent: one. */
  quantity: "quantity",
} as const;

/** The "Record this trade" link of a recommended put (or covered call): Add Trade's options form, filled in at the bid. */
export function recordTradeHref(option: {
  ticker: string;
  strike: number;
  expiry: string;
  bid: number;
  type?: "put" | "call";
  quantity?: number | undefined;
}): string {
  const search = new URLSearchParams({
    [RECORD_TRADE_PARAM.ticker]: option.ticker,
    [RECORD_TRADE_PARAM.strike]: String(option.strike),
    [RECORD_TRADE_PARAM.expiry]: option.expiry,
    [RECORD_TRADE_PARAM.bid]: String(option.bid),
    [RECORD_TRADE_PARAM.type]: option.type ?? "put",
  });
  if (option.quantity !== undefined && option.quantity >= 1)
    search.set(RECORD_TRADE_PARAM.quantity, String(option.quantity));
  return `/add-trade?${search}` satisfies HrefWithSearch;
}
