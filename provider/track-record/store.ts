/**
 * The track record in the database (track_record_picks). Three steps, each safe to repeat and to
 * run from two processes at once:
 *  - copy: every recommended put, once per option and New York day (the first time it was shown
 *    that day), copied out of trade_recommendations soon after it was stored, so pruning old runs
 *    later loses nothing the scoring needs;
 *  - score: once the expiry day's close is known, the outcome is written into a row whose outcome
 *    is still null (a second scorer of the same row finds it filled and leaves it);
 *  - read: the scored rows for the summary.
 */
import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";
import type { Insertable } from "kysely";
import type { TrackRecordPicksTable } from "#provider/db/schema.ts";
import {
  dayNumberOf,
  dayNumberOfTradingIndex,
  isoDateOf,
  nyClock,
  nyInstant,
  sessionAt,
  tradingIndexOf,
} from "#provider/market/calendar.ts";
import type { DailyBar, MarketData } from "#provider/market/port.ts";
import { scorePut } from "./outcome.ts";
import type { ScoredPick } from "./summary.ts";
import { isFollowed } from "#provider/store/followed-stocks.ts";
import { FALLBACK_RISK_FREE_RATE } from "#provider/market/rates.ts";

/** Advisory lock key of the copy and the back-test (other keys: 4242001 seeding, 4242007 the job leader). */
export const TRACK_RECORD_LOCK = 4242030;
/** Rows read per copy transaction. */
const COPY_BATCH = 5000;
/**
 * Ids are taken before a generation commits, so a run committing late can hold ids just below the
 * copy bookmark; each copy reads the last COPY_OVERLAP ids again (inserting them twice does nothing).
 */
const COPY_OVERLAP = 1000;
/** Rows per INSERT or UPDATE statement (PostgreSQL takes at most 65,535 parameters). */
const CHUNK = 1000;
/** dailyHistory is asked for at most this many sessions (the stock-history call's own cap). */
const MAX_HISTORY_DAYS = 1830;

export type NewPick = Insertable<TrackRecordPicksTable>;

/** track_record_state key: the highest trade_recommendations id copied (recommend/prune.ts reads it too). */
export const COPIED_THROUGH = "copied_through";

/** The latest session whose close is final at `now` (YYYY-MM-DD, New York). */
export function lastClosedSession(now: Date): string {
  const session = sessionAt(now);
  return isoDateOf(dayNumberOfTradingIndex(session.fraction >= 1 ? session.day : session.day - 1));
}

/** Inserts picks, skipping any option already recorded for that day; returns how many were new. */
export async function insertPicks(db: Db, picks: readonly NewPick[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < picks.length; i += CHUNK) {
    const rows = await db
      .insertInto("track_record_picks")
      .values(picks.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["option_symbol", "shown_day"]).doNothing())
      .returning("id")
      .execute();
    inserted += rows.length;
  }
  return inserted;
}

/**
 * Copies the recommended puts stored since the last copy. Rows are read defensively: a row whose
 * stored chance of profit, premium or strike is missing or unusable is not a pick.
 */
export async function copyShown(db: Db, options: { simulated: boolean }): Promise<number> {
  let copied = 0;
  for (;;) {
    const { rows, inserted } = await db.transaction().execute(async (tx) => {
      // Serialises copies from several processes, so the bookmark only moves forward.
      await sql`select pg_advisory_xact_lock(${TRACK_RECORD_LOCK})`.execute(tx);
      const mark = await tx
        .selectFrom("track_record_state")
        .select("value")
        .where("key", "=", COPIED_THROUGH)
        .executeTakeFirst();
      const through = Number(mark?.value ?? 0);
      const rows = await tx
        .selectFrom("trade_recommendations as t")
        .innerJoin("stocks as s", "s.id", "t.stock_id")
        .leftJoin("recommendation_runs as r", "r.id", "t.run_id")
        .select([
          "t.id",
          "s.ticker",
          "t.option_identifier",
          "t.created_at",
          "t.expiration_date",
          "t.strike_price",
          "t.current_option_price",
          "t.current_stock_price",
          "t.put_or_call",
          "t.probability_of_profit as pop",
          "t.default_rank as rank",
          "t.rate",
          sql<string | null>`r.inputs->'settings'->>'premium'`.as("basis"),
        ])
        .where("t.id", ">", through - COPY_OVERLAP)
        .orderBy("t.id")
        .limit(COPY_BATCH)
        .execute();
      const seen = new Set<string>();
      const picks: NewPick[] = [];
      for (const r of rows) {
        const pop = r.pop === null ? NaN : Number(r.pop);
        const shownAt = new Date(r.created_at);
        const shownDay = isoDateOf(nyClock(shownAt).dayNumber);
        const key = `${r.option_identifier}\u0000${shownDay}`;
        if (seen.has(key)) continue;
        if (r.put_or_call !== "put" || !(pop >= 0 && pop <= 1)) continue;
        // A run stores its whole pool; rank 0 marks a put the default view did not recommend (ADR 0022).
        if (r.rank !== null && !(Number(r.rank) > 0)) continue;
        if (!(r.strike_price > 0) || !(r.current_option_price > 0)) continue;
        seen.add(key);
        picks.push({
          source: "live",
          simulated: options.simulated,
          recommendation_id: r.id,
          ticker: r.ticker,
          option_symbol: r.option_identifier,
          shown_day: shownDay,
          shown_at: shownAt,
          expiration: r.expiration_date,
          strike: r.strike_price,
          premium: r.current_option_price,
          // The engine's default, and what every run has used unless a caller asked for the mid.
          premium_basis: r.basis === "mid" ? "mid" : "bid",
          spot: r.current_stock_price,
          probability_of_profit: pop,
          rate: r.rate !== null && Number.isFinite(r.rate) && r.rate > -0.1 && r.rate < 1 ? r.rate : null,
        });
      }
      const inserted = await insertPicks(tx, picks);
      const last = rows.at(-1)?.id;
      if (last !== undefined && last > through) {
        await tx
          .insertInto("track_record_state")
          .values({ key: COPIED_THROUGH, value: String(last) })
          .onConflict((oc) => oc.column("key").doUpdateSet({ value: String(last) }))
          .execute();
      }
      return { rows: rows.length, inserted };
    });
    copied += inserted;
    if (rows < COPY_BATCH) return copied;
  }
}

/** The close that settles an expiry: that day's, or the last one before it within a week (a holiday). */
export function settlingBar(bars: readonly DailyBar[], expiration: string): DailyBar | undefined {
  const earliest = isoDateOf(dayNumberOf(expiration) - 7);
  let found: DailyBar | undefined;
  for (const bar of bars) if (bar.time <= expiration && bar.time >= earliest) found = bar;
  return found;
}

export interface ScoreResult {
  /** Rows this call filled. */
  scored: number;
  /** Due rows left unscored (no close found, or the market failed). */
  waiting: number;
}

/** A due row's score from its expiry close. */
export interface Settled {
  id: number;
  day: string;
  close: number;
  outcome: string;
  pnl: number;
}

/**
 * The scores of due rows from their tickers' daily closes, one history read per ticker; a row whose
 * expiry has no final close yet (or whose market failed) waits. Puts and suggested calls share it.
 */
export async function settleDue<T extends { id: number; ticker: string; expiration: string }>(
  market: MarketData,
  closed: string,
  due: readonly T[],
  score: (row: T, close: number) => { outcome: string; pnlPerShare: number },
): Promise<{ values: Settled[]; waiting: number }> {
  const byTicker = new Map<string, T[]>();
  for (const row of due) {
    const list = byTicker.get(row.ticker);
    if (list) list.push(row);
    else byTicker.set(row.ticker, [row]);
  }
  let waiting = 0;
  const values: Settled[] = [];
  for (const [ticker, rows] of byTicker) {
    const sessions = tradingIndexOf(dayNumberOf(closed)) - tradingIndexOf(dayNumberOf(rows[0]!.expiration)) + 6;
    let bars: DailyBar[];
    try {
      bars = await market.dailyHistory(ticker, Math.min(MAX_HISTORY_DAYS, sessions));
    } catch (error) {
      console.warn(`[track-record] no closes for ${ticker}: ${(error as Error).message}`);
      waiting += rows.length;
      continue;
    }
    // Only final closes: the session under way (if any) is not one.
    bars = bars.filter((b) => b.time <= closed);
    for (const row of rows) {
      const bar = settlingBar(bars, row.expiration);
      if (!bar) {
        waiting++;
        continue;
      }
      const o = score(row, bar.close);
      values.push({ id: row.id, day: bar.time, close: bar.close, outcome: o.outcome, pnl: o.pnlPerShare });
    }
  }
  return { values, waiting };
}

/**
 * Writes the scores in one transaction, after every market call: readers see a run's scores all at
 * once, and no transaction stays open while a vendor answers. "outcome IS NULL": a row another
 * process scored meanwhile is left as that process wrote it (ADR 0027).
 */
export async function writeScores(
  db: Db,
  table: "track_record_picks" | "track_record_calls",
  values: readonly Settled[],
): Promise<number> {
  return db.transaction().execute(async (tx) => {
    let n = 0;
    for (let i = 0; i < values.length; i += CHUNK) {
      const rows = values
        .slice(i, i + CHUNK)
        .map((v) => sql`(${v.id}::int, ${v.day}::date, ${v.close}::float8, ${v.outcome}::text, ${v.pnl}::float8)`);
      const result = await sql<{ id: number }>`
        UPDATE ${sql.table(table)} AS p
        SET close_day = v.day, close_at_expiry = v.close, outcome = v.outcome, pnl_per_share = v.pnl, scored_at = now()
        FROM (VALUES ${sql.join(rows)}) AS v(id, day, close, outcome, pnl)
        WHERE p.id = v.id AND p.outcome IS NULL
        RETURNING p.id`.execute(tx);
      n += result.rows.length;
    }
    return n;
  });
}

/** Scores every pick whose expiry close is final at `now`, from the market's daily closes. */
export async function scoreDue(db: Db, market: MarketData, now: Date): Promise<ScoreResult> {
  const closed = lastClosedSession(now);
  const due = await db
    .selectFrom("track_record_picks")
    .select(["id", "ticker", "expiration", "strike", "premium"])
    .where("outcome", "is", null)
    .where("expiration", "<=", closed)
    .orderBy("ticker")
    .orderBy("expiration")
    .execute();
  const { values, waiting } = await settleDue(market, closed, due, (pick, close) =>
    scorePut({ strike: pick.strike, premium: pick.premium, close }),
  );
  return { scored: await writeScores(db, "track_record_picks", values), waiting };
}

export interface StoredTrackRecord {
  picks: ScoredPick[];
  pending: number;
  /** Whether any recorded pick was priced in the simulated market. */
  simulated: boolean;
  /** Picks recommended at the mid rather than the bid. */
  atMid: number;
  /** The latest scored picks, latest expiry first. */
  recent: (ScoredPick & { optionSymbol: string; closeAtExpiry: number })[];
  /** The latest assigned picks, latest expiry first: the ones a trader audits (issue 46). */
  recentAssigned: (ScoredPick & { optionSymbol: string; closeAtExpiry: number })[];
  /** The latest picks that expired worthless, latest expiry first. */
  recentExpired: (ScoredPick & { optionSymbol: string; closeAtExpiry: number })[];
}

export async function readTrackRecord(db: Db, recentLimit = 20): Promise<StoredTrackRecord> {
  const [rows, counts] = await Promise.all([
    db
      .selectFrom("track_record_picks")
      .select([
        "ticker",
        "option_symbol",
        "shown_day",
        "expiration",
        "strike",
        "premium",
        "probability_of_profit",
        "outcome",
        "pnl_per_share",
        "close_at_expiry",
        "source",
        "rate",
      ])
      .where("outcome", "is not", null)
      .orderBy("expiration", "desc")
      .orderBy("ticker")
      .orderBy("strike", "desc")
      .execute(),
    db
      .selectFrom("track_record_picks")
      .select((eb) => [
        eb.fn.countAll<number>().filterWhere("outcome", "is", null).as("pending"),
        eb.fn.countAll<number>().filterWhere("simulated", "=", true).as("simulated"),
        eb.fn.countAll<number>().filterWhere("premium_basis", "=", "mid").as("mid"),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  const picks = rows.map((r) => ({
    ticker: r.ticker,
    optionSymbol: r.option_symbol,
    shownDay: r.shown_day,
    expiration: r.expiration,
    strike: r.strike,
    premium: r.premium,
    probabilityOfProfit: r.probability_of_profit,
    outcome: r.outcome!,
    pnlPerShare: r.pnl_per_share!,
    closeAtExpiry: r.close_at_expiry!,
    source: r.source,
    // Picks copied before the rate was kept: the fallback, the rate the simulated market prices with.
    rate: r.rate ?? FALLBACK_RISK_FREE_RATE,
  }));
  return {
    picks,
    pending: Number(counts.pending),
    simulated: Number(counts.simulated) > 0,
    atMid: Number(counts.mid),
    recent: picks.slice(0, recentLimit),
    recentAssigned: picks.filter((p) => p.outcome === "assigned").slice(0, recentLimit),
    recentExpired: picks.filter((p) => p.outcome === "expired_worthless").slice(0, recentLimit),
  };
}

/** Puts the engine priced in the latest New York day it ran: each stock's latest run of that day. */
export async function pricedInLatestSession(db: Db): Promise<{ day: string | null; puts: number }> {
  const latest = await db
    .selectFrom("recommendation_runs")
    .select(({ fn }) => fn.max("created_at").as("at"))
    .executeTakeFirst();
  if (!latest?.at) return { day: null, puts: 0 };
  const dayNumber = nyClock(new Date(latest.at as Date | string)).dayNumber;
  const rows = await db
    .selectFrom("recommendation_runs")
    .distinctOn("stock_id")
    .select(["stock_id", sql<string | null>`inputs->>'candidates'`.as("candidates")])
    .where("created_at", ">=", nyInstant(dayNumber, 0))
    .where("created_at", "<", nyInstant(dayNumber + 1, 0))
    .orderBy("stock_id")
    .orderBy("created_at", "desc")
    .execute();
  const puts = rows.reduce((sum, r) => sum + (Number(r.candidates) || 0), 0);
  return { day: isoDateOf(dayNumber), puts };
}

/** Stocks on an active watchlist row or on the curated (UIP) list. */
export async function stocksFollowed(db: Db): Promise<number> {
  const row = await db
    .selectFrom("stocks as s")
    .select(({ fn }) => fn.countAll<number>().as("n"))
    .where(isFollowed)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
