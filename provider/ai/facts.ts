/**
 * Gathers what an explanation may use from the provider's own data: the store (the caller's
 * watchlist row, the UIP row and its category, stored prices and at-the-money IVs) and the
 * market-data port. The figures themselves are derived without I/O in facts-derive.ts.
 */
import type { Db } from "#provider/db/client.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData } from "#provider/market/port.ts";
import { marketRate } from "#provider/market/rates.ts";
import { notFound } from "#provider/http/errors.ts";
import { referenceLevels } from "#provider/recommend/levels.ts";
import { activeRecommendations, activeRunIv, generationInputs } from "#provider/recommend/store.ts";
import { savedFilters } from "#provider/recommend/filters.ts";
import { pastAtmIvs } from "#provider/recommend/generate.ts";
import { isoDateOf, nyClock } from "#provider/market/calendar.ts";
import {
  deriveRecommendationFacts,
  deriveStockFacts,
  TREND_DAYS,
  underlyingOf,
  type ChosenLevels,
  type RecommendationFacts,
  type StockFacts,
  type SummarizeInput,
} from "./facts-derive.ts";

/** Stored at-the-money IVs read for the IV rank (a year of trading days). */
const IV_HISTORY_DAYS = 252;

/** A market call that may fail: its value, or undefined and the failure noted. */
async function attempt<T>(what: string, missing: string[], run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    missing.push(what);
    console.warn(`[ai] ${what} unavailable: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * A known ticker's stock, its reference levels chosen as generation chooses them (recommend/levels.ts),
 * its UIP category and stored IVs; null when the provider does not track the ticker.
 */
async function referenceOf(
  db: Db,
  ticker: string,
  callerId: number,
): Promise<{
  stock: { id: number; ticker: string; name: string; current_price: number; updated_at: Date | null };
  chosen: ChosenLevels;
  category: string | null;
  ivHistory: { day: string; atm_iv: number }[];
} | null> {
  const [known, stock, uip] = await Promise.all([
    generationInputs(db, ticker, callerId, IV_HISTORY_DAYS),
    db
      .selectFrom("stocks")
      .select(["id", "ticker", "name", "current_price", "updated_at"])
      .where("ticker", "=", ticker)
      .executeTakeFirst(),
    db
      .selectFrom("uip_stocks as u")
      .innerJoin("stocks as s", "s.id", "u.stock_id")
      .innerJoin("categories as c", "c.id", "u.category_id")
      .select("c.name")
      .where("s.ticker", "=", ticker)
      .where("u.active", "=", 1)
      .executeTakeFirst(),
  ]);
  if (!known || !stock) return null;
  return {
    stock,
    chosen: await referenceLevels(db, stock.id, known),
    category: uip?.name ?? null,
    ivHistory: known.ivHistory,
  };
}

/**
 * Everything the stock analysis may say about `ticker` for the caller. Unknown tickers (not in the
 * stocks table) are 404; market pieces that fail are left out and named in `missing`.
 */
export async function stockFacts(
  context: { db: Db; market: MarketData },
  tickerInput: string,
  callerId: number,
): Promise<StockFacts> {
  const ticker = tickerInput.trim().toUpperCase();
  const reference = await referenceOf(context.db, ticker, callerId);
  if (!reference) throw notFound(`Unknown ticker: ${ticker}`);
  const { market } = context;
  const missing: string[] = [];
  const [quote, history, chain, earningsDate] = await Promise.all([
    attempt("a live quote", missing, () => market.quote(ticker)),
    attempt("price history", missing, () => market.dailyHistory(ticker, TREND_DAYS + 1)),
    attempt("the option chain", missing, () => market.optionChain(ticker)),
    attempt("the earnings calendar", missing, () => market.nextEarningsDate(ticker)),
  ]);
  // What /insights shows this reader of the stock (ADR 0022): their filters, the run's IV figures
  // and their list of its puts, so the analysis says what the screen says.
  const { db } = context;
  const filters = await savedFilters(db, callerId);
  const [run, picks] = await Promise.all([
    activeRunIv(db, reference.stock.id),
    activeRecommendations(db, reference.stock.id, callerId, filters),
  ]);
  // Past IVs as generation reads them: the stored ones topped up from the market's own history.
  const today = history?.at(-1)?.time ?? isoDateOf(nyClock(chain?.asOf ?? marketNow(market)).dayNumber);
  const ivHistory = await pastAtmIvs(market, ticker, reference.ivHistory, today).catch(() => reference.ivHistory);
  return deriveStockFacts({
    ...reference,
    ivHistory,
    quote,
    history,
    chain,
    earningsDate,
    missing,
    now: marketNow(market),
    screen: { filters, run, picks },
  });
}

/** Everything the recommendation summary may say, from the posted recommendation and the caller's levels. */
export async function recommendationFacts(
  context: { db: Db; market: Pick<MarketData, "riskFreeRate"> },
  body: SummarizeInput,
  callerId: number,
  now: Date = new Date(),
): Promise<RecommendationFacts> {
  const { ticker } = underlyingOf(body);
  const reference = ticker ? await referenceOf(context.db, ticker, callerId) : null;
  // The run's own rate when the recommendation carries it, else the one the market in use prices with.
  const rate = Number.isFinite(body.rate) && body.rate! > 0 ? body.rate! : await marketRate(context.market);
  return deriveRecommendationFacts(body, {
    reference: reference && { name: reference.stock.name, chosen: reference.chosen },
    rate,
    now,
  });
}
