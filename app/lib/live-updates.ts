/**
 * Live updates (docs/product.md#states-live): applying a checked websocket message to what is on screen (checking
 * is in live-messages.ts). Pure functions; the socket and React live in app/hooks/use-live-updates.ts.
 */
import type { PriceQuote, StockPriceUpdate } from "#contract/ws.ts";

/** The latest quote per ticker. */
export type LivePrices = ReadonlyMap<string, PriceQuote>;

/** Adds a price update (one quote or a list of them) to the latest quotes; older quotes never win. */
export function applyPriceUpdate(prices: LivePrices, update: StockPriceUpdate): LivePrices {
  const quotes = Array.isArray(update.data) ? update.data : [update.data];
  const next = new Map(prices);
  for (const quote of quotes) {
    const key = quote.ticker.toUpperCase();
    const known = next.get(key);
    if (!known || Date.parse(quote.updated_at) >= Date.parse(known.updated_at)) next.set(key, quote);
  }
  return next;
}

interface HasStock {
  stock: { ticker: string; current_price: number; updated_at: string | null };
}

/** A row as last shown with a quote, so the next update can hand back the same object (`withLivePrices`). */
export type QuotedRows<T extends object> = WeakMap<T, { quote: PriceQuote; row: T }>;

/**
 * The rows with their stock's price and time replaced by a newer live quote (docs/product.md#states-live: "replace
 * current_price and updated_at of the stock with the matching ticker"). Rows without a newer
 * quote are returned as they are (same object), and so is a row whose quote has not changed since
 * the last call with the same `kept`: React skips every row but the one a quote moved (ADR 0055).
 */
export function withLivePrices<T extends HasStock>(rows: readonly T[], prices: LivePrices, kept?: QuotedRows<T>): T[] {
  if (prices.size === 0) return rows as T[];
  return rows.map((row) => {
    const quote = prices.get(row.stock.ticker.toUpperCase());
    if (!quote) return row;
    const shown = row.stock.updated_at ? Date.parse(row.stock.updated_at) : -Infinity;
    if (Date.parse(quote.updated_at) < shown) return row;
    if (quote.current_price === row.stock.current_price && quote.updated_at === row.stock.updated_at) return row;
    const last = kept?.get(row);
    if (last?.quote === quote) return last.row;
    const quoted = {
      ...row,
      stock: { ...row.stock, current_price: quote.current_price, updated_at: quote.updated_at },
    };
    kept?.set(row, { quote, row: quoted });
    return quoted;
  });
}
