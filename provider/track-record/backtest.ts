/**
 * A back-test for the simulated market, so a new install has a track record to show: the sell-put
 * engine run at the close of past sessions (one a week), over the stocks someone flagged for
 * recommendations, its picks recorded as if they had been shown then. The simulated market is a
 * pure function of its seed and the time, so the past chains and the later closes are the ones the
 * running market gives. Ranked without anyone's buy levels (today's levels would look ahead).
 */
import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";
import {
  CLOSE_MINUTE,
  dayNumberOf,
  dayNumberOfTradingIndex,
  isoDateOf,
  nyInstant,
  tradingIndexOf,
} from "#provider/market/calendar.ts";
import type { SimulatedMarket } from "#provider/market/simulated.ts";
import { analyzeChain, HV_WINDOW, NO_LEVELS } from "#provider/recommend/engine.ts";
import { isFlagged } from "#provider/store/followed-stocks.ts";
import { FALLBACK_RISK_FREE_RATE } from "#provider/market/rates.ts";
import { insertPicks, lastClosedSession, TRACK_RECORD_LOCK, type NewPick } from "./store.ts";

const BACKTEST_DONE = "backtest";

/** The sessions a back-test replays: one a week, the latest a week before `through`, oldest first. */
export function backtestSessions(through: string, weeks: number): string[] {
  const last = tradingIndexOf(dayNumberOf(through));
  return Array.from({ length: weeks }, (_, i) => isoDateOf(dayNumberOfTradingIndex(last - 5 * (weeks - i))));
}

/** The engine's picks at the close of each session, for each ticker the market knows. */
async function backtestPicks(
  market: SimulatedMarket,
  tickers: readonly string[],
  sessions: readonly string[],
  signal?: AbortSignal,
): Promise<NewPick[]> {
  let clock = new Date(0);
  const past = market.withClock(() => clock);
  const picks: NewPick[] = [];
  for (const day of sessions) {
    clock = nyInstant(dayNumberOf(day), CLOSE_MINUTE);
    for (const ticker of tickers) {
      if (signal?.aborted) return picks;
      const [chain, history, earningsDate] = await Promise.all([
        past.optionChain(ticker),
        past.dailyHistory(ticker, HV_WINDOW + 5),
        past.nextEarningsDate(ticker),
      ]);
      const analysis = analyzeChain({
        chain,
        closes: history.map((bar) => bar.close),
        levels: NO_LEVELS,
        earningsDate,
        ivHistory: [],
      });
      for (const c of analysis.selected) {
        picks.push({
          source: "backtest",
          simulated: true,
          recommendation_id: null,
          ticker: chain.ticker,
          option_symbol: c.symbol,
          shown_day: day,
          shown_at: clock,
          expiration: c.expiration,
          strike: c.strike,
          premium: c.premium,
          premium_basis: analysis.settings.premium,
          spot: chain.spot,
          probability_of_profit: c.probabilityOfProfit,
          // The rate analyzeChain priced with (its own fallback when the chain carries none).
          rate: chain.rate ?? FALLBACK_RISK_FREE_RATE,
        });
      }
      // A chain takes a few milliseconds to price: let requests in between.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return picks;
}

/** The stocks someone flagged for recommendations that the market knows. */
async function flaggedTickers(db: Db, market: SimulatedMarket): Promise<string[]> {
  const rows = await db.selectFrom("stocks as s").select("s.ticker").where(isFlagged).orderBy("s.ticker").execute();
  const known = new Set(market.tickers);
  return rows.map((r) => r.ticker).filter((t) => known.has(t));
}

/**
 * Runs the back-test once per database: the first run records that it ran (its sessions and
 * tickers), later runs do nothing. Returns the picks it added (0 when it had run already).
 */
export async function backtestOnce(
  db: Db,
  market: SimulatedMarket,
  options: { weeks: number; now: Date; signal?: AbortSignal | undefined },
): Promise<number> {
  const done = await db
    .selectFrom("track_record_state")
    .select("value")
    .where("key", "=", BACKTEST_DONE)
    .executeTakeFirst();
  if (done || options.weeks <= 0) return 0;
  const tickers = await flaggedTickers(db, market);
  // Nothing flagged yet: try again on a later run rather than record an empty back-test.
  if (tickers.length === 0) return 0;
  const sessions = backtestSessions(lastClosedSession(options.now), options.weeks);
  // Priced outside the transaction (seconds of work); a second process doing the same meanwhile
  // computes the same picks, and the unique key keeps one copy.
  const picks = await backtestPicks(market, tickers, sessions, options.signal);
  if (options.signal?.aborted) return 0;
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${TRACK_RECORD_LOCK})`.execute(tx);
    const again = await tx
      .selectFrom("track_record_state")
      .select("value")
      .where("key", "=", BACKTEST_DONE)
      .executeTakeFirst();
    if (again) return 0;
    const inserted = await insertPicks(tx, picks);
    await tx
      .insertInto("track_record_state")
      .values({
        key: BACKTEST_DONE,
        value: JSON.stringify({ from: sessions[0] ?? null, to: sessions.at(-1) ?? null, tickers }),
      })
      .execute();
    return inserted;
  });
}
