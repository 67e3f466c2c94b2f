/**
 * The covered calls the screen suggested, in the track record (docs/decisions/0088): copied when a
 * trader's screen is computed, once per trader, option and New York day; scored from the expiry
 * close like the puts (store.ts), into their own table so the put figures stay exactly as they were.
 */
import { sql } from "kysely";
import type { CoveredCalls } from "#contract/covered-calls.ts";
import type { Db } from "#provider/db/client.ts";
import { isoDateOf, nyClock } from "#provider/market/calendar.ts";
import type { MarketData } from "#provider/market/port.ts";
import { scoreCall } from "./call-outcome.ts";
import { lastClosedSession, settleDue, writeScores, type ScoreResult } from "./store.ts";

/** Calls copied from one screen at most: the screen shows a few per expiry per holding. */
export const MAX_CALLS_PER_SCREEN = 200;

/**
 * Calls this process already copied today (trader and option), per database: a trader reopening the screen writes
 * nothing again. Only a shortcut: the unique key still decides, so another process copying the same
 * call changes nothing. Cleared each New York day and past MEMO_LIMIT keys, which bounds its memory.
 */
const copiedByDb = new WeakMap<Db, { day: string; keys: Set<string> }>();
const MEMO_LIMIT = 100_000;

/**
 * Copies the calls a trader's screen lists (not the "nearest" call shown when none passed the
 * filters: that one was named, not suggested). A call already copied for the trader that day is
 * left as first shown.
 */
export async function recordShownCalls(
  db: Db,
  userId: number,
  screen: CoveredCalls,
  options: { simulated: boolean; now: Date },
): Promise<number> {
  const shownDay = isoDateOf(nyClock(options.now).dayNumber);
  const rows = screen.holdings
    .filter((h) => h.spot !== null && h.adjusted_basis > 0)
    .flatMap((h) =>
      h.calls
        .filter((c) => c.bid > 0)
        .map((c) => ({
          user_id: userId,
          simulated: options.simulated,
          ticker: h.ticker,
          option_symbol: c.occ_symbol,
          shown_day: shownDay,
          shown_at: options.now,
          expiration: c.expiry,
          strike: c.strike,
          premium: c.bid,
          adjusted_basis: h.adjusted_basis,
          spot: h.spot!,
          chance_called: c.chance_called,
        })),
    )
    .slice(0, MAX_CALLS_PER_SCREEN);
  let copiedToday = copiedByDb.get(db);
  if (!copiedToday) copiedByDb.set(db, (copiedToday = { day: shownDay, keys: new Set() }));
  if (copiedToday.day !== shownDay || copiedToday.keys.size > MEMO_LIMIT) {
    copiedToday.day = shownDay;
    copiedToday.keys.clear();
  }
  const keyOf = (row: (typeof rows)[number]) => `${userId}\u0000${row.option_symbol}`;
  const fresh = rows.filter((row) => !copiedToday.keys.has(keyOf(row)));
  if (fresh.length === 0) return 0;
  const inserted = await db
    .insertInto("track_record_calls")
    .values(fresh)
    .onConflict((oc) => oc.columns(["user_id", "option_symbol", "shown_day"]).doNothing())
    .returning("id")
    .execute();
  for (const row of fresh) copiedToday.keys.add(keyOf(row));
  return inserted.length;
}

/** Scores every suggested call whose expiry close is final at `now`, from the market's daily closes. */
export async function scoreDueCalls(db: Db, market: MarketData, now: Date): Promise<ScoreResult> {
  const closed = lastClosedSession(now);
  const due = await db
    .selectFrom("track_record_calls")
    .select(["id", "ticker", "expiration", "strike", "premium", "adjusted_basis"])
    .where("outcome", "is", null)
    .where("expiration", "<=", closed)
    .orderBy("ticker")
    .orderBy("expiration")
    .execute();
  const { values, waiting } = await settleDue(market, closed, due, (call, close) =>
    scoreCall({ strike: call.strike, premium: call.premium, adjustedBasis: call.adjusted_basis, close }),
  );
  return { scored: await writeScores(db, "track_record_calls", values), waiting };
}

/** The suggested calls' totals, over every trader (no one's own rows leave the table). */
export interface CallRecordTotals {
  count: number;
  calledAway: number;
  kept: number;
  pending: number;
  simulated: boolean;
  /** Mean premium / adjusted basis. */
  meanPromisedReturn: number;
  /** Mean P&L / adjusted basis, gross of commission. */
  meanRealisedReturn: number;
  /** Sum of the P&L of one contract (100 shares) of each call, gross of commission. */
  pnlPerContract: number;
  /** Mean risk-neutral chance of being called shown (calls without one left out); null when none. */
  meanChanceCalled: number | null;
  firstShown: string | null;
  lastExpiry: string | null;
}

export async function readCallRecord(db: Db): Promise<CallRecordTotals> {
  const row = await db
    .selectFrom("track_record_calls")
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere("outcome", "is not", null).as("count"),
      eb.fn.countAll<number>().filterWhere("outcome", "=", "called_away").as("called_away"),
      eb.fn.countAll<number>().filterWhere("outcome", "is", null).as("pending"),
      eb.fn.countAll<number>().filterWhere("simulated", "=", true).as("simulated"),
      sql<number | null>`avg(premium / adjusted_basis) FILTER (WHERE outcome IS NOT NULL)`.as("promised"),
      sql<number | null>`avg(pnl_per_share / adjusted_basis) FILTER (WHERE outcome IS NOT NULL)`.as("realised"),
      sql<number | null>`sum(pnl_per_share * 100)`.as("pnl"),
      sql<number | null>`avg(chance_called) FILTER (WHERE outcome IS NOT NULL)`.as("chance"),
      sql<string | null>`min(shown_day) FILTER (WHERE outcome IS NOT NULL)::text`.as("first_shown"),
      sql<string | null>`max(expiration) FILTER (WHERE outcome IS NOT NULL)::text`.as("last_expiry"),
    ])
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  const calledAway = Number(row.called_away);
  return {
    count,
    calledAway,
    kept: count - calledAway,
    pending: Number(row.pending),
    simulated: Number(row.simulated) > 0,
    meanPromisedReturn: Number(row.promised ?? 0),
    meanRealisedReturn: Number(row.realised ?? 0),
    pnlPerContract: Math.round(Number(row.pnl ?? 0) * 100) / 100,
    meanChanceCalled: row.chance === null ? null : Number(row.chance),
    firstShown: row.first_shown,
    lastExpiry: row.last_expiry,
  };
}
