import type { Db } from "#provider/db/client.ts";
import type { BestPuts, Plan, PlanFits } from "#contract/plan.ts";
import { HttpError } from "#provider/http/errors.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData } from "#provider/market/port.ts";
import * as journal from "#provider/journal/store.ts";
import { replay } from "#provider/journal/wheel.ts";
import { savedFilters } from "#provider/recommend/filters.ts";
import { recommendationsByIds, selectedOfActivePools } from "#provider/recommend/store.ts";
import type { ReferenceLevels } from "#provider/recommend/level-flags.ts";
import { bestPutsOf, bookOf, buildPlan, fitOf, heldLotsOf, STANDARD_MOVES } from "./plan.ts";
import { savedCapitalSettings, sectorsOf, tickerFacts } from "./store.ts";

/**
 * The plan's use cases (ADR 0081): the journal replayed (provider/journal/wheel.ts), the store's
 * prices, levels and sectors, and the pure core (plan.ts) over them.
 */

/** Best puts listed at most (one contract each, one per ticker). */
const BEST_PUTS_LIMIT = 10;

/** The trader's settings, open legs and held lots, and the facts of the tickers named (theirs and `extra`). */
async function bookInputs(db: Db, market: MarketData, userId: number, extra: readonly string[], now: number) {
  const [settings, trades] = await Promise.all([savedCapitalSettings(db, userId), journal.listTrades(db, userId)]);
  const result = replay(trades.map(journal.wheelTrade), now);
  // Stored trades always replayed when they were stored; a clock set back is the only way here.
  if (!result.ok) throw new HttpError(500, `The journal does not add up: ${result.refusal.reason}`);
  const { wheel } = result;
  const tickers = [...new Set([...wheel.legs.map((l) => l.ticker), ...wheel.lots.map((l) => l.ticker), ...extra])];
  const facts = await tickerFacts(db, userId, tickers);
  const sectors = await sectorsOf(db, market, tickers, facts);
  return {
    settings,
    legs: wheel.legs,
    lots: heldLotsOf(wheel),
    spots: facts.spots,
    levels: facts.levels,
    sectors,
    now,
  };
}

export async function planOf(
  db: Db,
  market: MarketData,
  userId: number,
  move?: number,
  now = marketNow(market).getTime(),
): Promise<Plan> {
  const inputs = await bookInputs(db, market, userId, [], now);
  return buildPlan({ ...inputs, moves: STANDARD_MOVES, custom: move });
}

const header = (book: ReturnType<typeof bookOf>, onlyFitting: boolean) => ({
  capital: book.capital,
  free_cash: book.freeCash === null ? null : Math.round(book.freeCash * 100) / 100,
  ticker_limit: book.tickerLimit,
  sector_limit: book.sectorLimit,
  only_fitting: onlyFitting,
});

/** Whether each recommended put fits (unknown ids are left out); no fits without capital. */
export async function fitsOf(
  db: Db,
  market: MarketData,
  userId: number,
  ids: readonly number[],
  now = marketNow(market).getTime(),
): Promise<PlanFits> {
  const puts = await db
    .selectFrom("trade_recommendations as t")
    .innerJoin("stocks as s", "s.id", "t.stock_id")
    .select(["t.id", "s.ticker", "t.strike_price as strike"])
    .where("t.id", "in", [...ids])
    .execute();
  const inputs = await bookInputs(db, market, userId, [...new Set(puts.map((p) => p.ticker))], now);
  const book = bookOf(inputs);
  const fits = puts.flatMap((p) => fitOf(book, p) ?? []);
  return { ...header(book, inputs.settings.only_fitting), fits };
}

/**
 * The best puts over the trader's flagged stocks (Recs switch on): each stock's list as the trader
 * sees it (their levels and filters, ranked by their score, ADR 0022), then bestPutsOf.
 */
export async function bestPutsFor(
  db: Db,
  market: MarketData,
  userId: number,
  now = marketNow(market).getTime(),
): Promise<BestPuts> {
  const [flagged, filters] = await Promise.all([
    db
      .selectFrom("user_stocks as us")
      .innerJoin("stocks as s", "s.id", "us.stock_id")
      .select(["s.id", "s.ticker"])
      .where("us.user_id", "=", userId)
      .where("us.active", "=", 1)
      .where("us.generate_recommendation", "=", true)
      .execute(),
    savedFilters(db, userId),
  ]);
  const inputs = await bookInputs(
    db,
    market,
    userId,
    flagged.map((f) => f.ticker),
    now,
  );
  // Flagged stocks are on the trader's watchlist: their own levels rank the puts (ADR 0022).
  const levelsOf = new Map<number, ReferenceLevels | null>(
    flagged.map((f) => [f.id, inputs.levels.get(f.ticker) ?? null]),
  );
  const tickerOf = new Map(flagged.map((f) => [f.id, f.ticker]));
  const candidates = (await selectedOfActivePools(db, levelsOf, filters)).map((c) => ({
    ...c,
    ticker: tickerOf.get(c.stockId)!,
  }));
  const book = bookOf(inputs);
  const picks = bestPutsOf(book, candidates, BEST_PUTS_LIMIT);
  // Whole rows only for the few picked.
  const rows = await recommendationsByIds(
    db,
    picks.map((p) => p.candidate.id),
    userId,
    filters,
  );
  return {
    ...header(book, inputs.settings.only_fitting),
    picks: picks.map((p) => ({
      recommendation: rows.get(p.candidate.id)!,
      fit: p.fit,
      contracts: 1,
      cash: p.cash,
      running_total: p.runningTotal,
    })),
  };
}
