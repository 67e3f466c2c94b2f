import type { Db } from "#provider/db/client.ts";
import type { MarketData } from "#provider/market/port.ts";
import { MarketDataError } from "#provider/market/port.ts";
import { unprocessable } from "#provider/http/errors.ts";

const unknownTickerDetail = (ticker: string) =>
  `Unknown ticker '${ticker}': no market data was found for it. Check the symbol and try again.`;

/**
 * The shared `stocks` row of a ticker; created from market data (name, current price) when missing.
 * A ticker the market does not know is refused with 422. Both lists add through it.
 */
export async function stockForTicker(
  db: Db,
  market: MarketData,
  ticker: string,
  fallbackName: string,
): Promise<{ id: number; ticker: string }> {
  const existing = await db
    .selectFrom("stocks")
    .select(["id", "ticker"])
    .where("ticker", "=", ticker)
    .executeTakeFirst();
  if (existing) return existing;
  let quote;
  let name: string | undefined;
  try {
    [quote, name] = await Promise.all([market.quote(ticker), market.companyName(ticker)]);
  } catch (error) {
    if (error instanceof MarketDataError && error.status === 404) throw unprocessable(unknownTickerDetail(ticker));
    throw error;
  }
  await db
    .insertInto("stocks")
    .values({
      ticker,
      name: name || fallbackName.trim() || ticker,
      current_price: quote.price,
      updated_at: quote.asOf,
      price_source: quote.source,
    })
    // Two people adding a new ticker at once share one row.
    .onConflict((oc) => oc.column("ticker").doNothing())
    .execute();
  return db.selectFrom("stocks").select(["id", "ticker"]).where("ticker", "=", ticker).executeTakeFirstOrThrow();
}

/** The name stored with a ticker's `stocks` row, or undefined for a ticker not stored yet. */
export async function storedStockName(db: Db, ticker: string): Promise<string | undefined> {
  const stored = await db.selectFrom("stocks").select("name").where("ticker", "=", ticker).executeTakeFirst();
  return stored?.name;
}

/** A ticker's stored `stocks` row (its id), or undefined for a ticker not stored yet. */
export function storedStock(db: Db, ticker: string): Promise<{ id: number } | undefined> {
  return db.selectFrom("stocks").select("id").where("ticker", "=", ticker).executeTakeFirst();
}
