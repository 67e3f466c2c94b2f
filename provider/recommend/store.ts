/**
 * Recommendations in the database. A generation run is one recommendation_runs row (its inputs,
 * for scoring outcomes later) and its trade_recommendations rows. Storing a run retires the
 * ticker's previous set (active = 0, kept for scoring) in the same transaction, which first locks
 * the stock's row, so two processes generating the same ticker at once cannot leave two active sets.
 * Generation is one of the hot paths (every flagged ticker, every interval), so it keeps its round
 * trips few: one read before, five statements in the transaction, none after.
 */
import { sql, type Selectable } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import type { Db } from "../db/client.ts";
import type { TradeRecommendationsTable } from "../db/schema.ts";
import type { TopLineRecommendation, TradeRecommendation } from "../../contract/entities.ts";
import { levelFlags, type Candidate, type ReferenceLevels } from "./engine.ts";
import { LEVEL_COLUMNS } from "./levels.ts";

/** The contract's extra fields of a TradeRecommendation, kept in the `extra` column, plus the rank. */
export interface StoredExtra {
  open_interest: number;
  bid: number;
  ask: number;
  days_to_expiry: number;
  annualized_roi: number;
  breakeven: number;
  collateral: number;
  cushion: number;
  probability_of_profit: number;
  probability_of_profit_delta: number;
  earnings_date: string | null;
  earnings_before_expiry: boolean;
  iv_rank: number | null;
  /**
   * Against the levels that ranked the set (possibly one user's private levels): kept for scoring
   * outcomes, never served. Readers get the flags against the levels they may see (seenWith).
   */
  buy_level: "one" | "two" | "three" | "four" | null;
  below_conservative_iv: boolean;
  /** Not in the contract: the engine's score and the row's place within its expiry (1 = best). */
  score: number;
  rank: number;
}

/** What a run records about itself, for the top line and for scoring the outcome later. */
export interface RunInputs {
  ticker: string;
  as_of: string;
  spot: number;
  rate: number;
  dividend_yield: number;
  historical_volatility: number;
  hv_returns: number;
  atm_implied_volatility: number | null;
  iv_rank: number | null;
  earnings_date: string | null;
  levels: Record<string, number>;
  /** Whose levels ranked the puts: the caller's watchlist row, the UIP row, the flagging users', or none. */
  levels_source: string;
  trigger: string;
  /** Whether this run told the flagging users about new recommendations. */
  announced: boolean;
  settings: Record<string, unknown>;
  puts_in_chain: number;
  eligible: number;
  options_priced: number;
  candidates: number;
}

export interface SelectedOption {
  candidate: Candidate;
  weeklyLow: number;
  weeklyHigh: number;
  rank: number;
}

export interface StoreRunInput {
  stockId: number;
  inputs: RunInputs;
  selected: SelectedOption[];
  earningsDate: string | null;
  ivRank: number | null;
  /** Today's at-the-money IV, recorded against `day` in price_history for future IV ranks. */
  atmIv?:
    | { day: string; value: number; bar: { open: number; high: number; low: number; close: number; volume: number } }
    | undefined;
}

export interface StoredRun {
  runId: number;
  createdAt: Date;
  /** Option symbols of the set this run replaced. */
  previous: string[];
  /**
   * The new set as the contract has it, in the order the engine ranked it. Its buy_level and
   * below_conservative_iv are against the ranking levels: pass it through seenWith before it
   * leaves the provider.
   */
  recommendations: TradeRecommendation[];
}

export async function storeRun(db: Db, input: StoreRunInput): Promise<StoredRun> {
  return db.transaction().execute(async (tx) => {
    // Locks the stock's row until commit: a second generation of the same stock waits here.
    await tx
      .updateTable("stocks")
      .set({ next_earnings_date: input.earningsDate })
      .where("id", "=", input.stockId)
      .execute();
    const now = new Date();
    const retired = await tx
      .updateTable("trade_recommendations")
      .set({ active: 0, updated_at: now })
      .where("stock_id", "=", input.stockId)
      .where("active", "=", 1)
      .returning("option_identifier")
      .execute();
    const run = await tx
      .insertInto("recommendation_runs")
      .values({ stock_id: input.stockId, inputs: JSON.stringify(input.inputs), created_at: now })
      .returning(["id", "created_at"])
      .executeTakeFirstOrThrow();
    const values = input.selected.map(({ candidate: c, weeklyLow, weeklyHigh, rank }) => {
      const extra: StoredExtra = {
        open_interest: c.openInterest,
        bid: c.bid,
        ask: c.ask,
        days_to_expiry: c.daysToExpiry,
        annualized_roi: c.annualizedRoi,
        breakeven: c.breakeven,
        collateral: c.collateral,
        cushion: c.cushion,
        probability_of_profit: c.probabilityOfProfit,
        probability_of_profit_delta: c.probabilityOfProfitDelta,
        earnings_date: input.earningsDate,
        earnings_before_expiry: c.earningsBeforeExpiry,
        iv_rank: input.ivRank,
        buy_level: c.buyLevel,
        below_conservative_iv: c.belowConservativeIv,
        score: c.score,
        rank,
      };
      return {
        run_id: run.id,
        stock_id: input.stockId,
        option_identifier: c.symbol,
        put_or_call: "put",
        expiration_date: c.expiration,
        strike_price: c.strike,
        current_stock_price: input.inputs.spot,
        current_option_price: c.premium,
        option_weekly_low_price: weeklyLow,
        option_weekly_high_price: weeklyHigh,
        calculated_monthly_roi: c.monthlyRoi,
        implied_volatility: c.impliedVolatility,
        historical_volatility: input.inputs.historical_volatility,
        delta: c.delta,
        theta: c.theta,
        vega: c.vega,
        volume: c.volume,
        extra,
        created_at: now,
        updated_at: now,
      };
    });
    // Only the ids come back: reading whole rows back costs more than the insert itself on PGlite.
    const ids = values.length
      ? await tx
          .insertInto("trade_recommendations")
          .values(values.map((v) => ({ ...v, extra: JSON.stringify(v.extra) })))
          .returning(["id", "option_identifier"])
          .execute()
      : [];
    const idOf = new Map(ids.map((r) => [r.option_identifier, r.id]));
    const rows: Selectable<TradeRecommendationsTable>[] = values.map((v) => ({
      ...v,
      id: idOf.get(v.option_identifier)!,
      active: 1,
    }));
    if (input.atmIv) {
      const { day, value, bar } = input.atmIv;
      // Only the IV is ours: a bar the price jobs stored stays as they wrote it.
      await tx
        .insertInto("price_history")
        .values({ stock_id: input.stockId, day, ...bar, volume: Math.round(bar.volume), atm_iv: value })
        .onConflict((oc) => oc.columns(["stock_id", "day"]).doUpdateSet({ atm_iv: value }))
        .execute();
    }
    return {
      runId: run.id,
      createdAt: new Date(run.created_at),
      previous: retired.map((r) => r.option_identifier),
      recommendations: rows.map(toContract),
    };
  });
}

export interface GenerationInputs {
  stock: { id: number; ticker: string; name: string };
  /** The caller's active watchlist row of the stock, if any. */
  own: ReferenceLevels | null;
  /** The stock's active UIP row, if any. */
  uip: ReferenceLevels | null;
  /** The latest stored daily ATM IVs with their day, oldest first. */
  ivHistory: { day: string; atm_iv: number }[];
  /** Option symbols of the active set. */
  active: string[];
  /** When a run last told the flagging users about new recommendations. */
  lastAnnounced: Date | null;
}

/** Everything a generation reads from the store, in one query; undefined for an unknown ticker. */
export async function generationInputs(
  db: Db,
  ticker: string,
  callerId: number | undefined,
  ivLimit: number,
): Promise<GenerationInputs | undefined> {
  const row = await db
    .selectFrom("stocks as s")
    .select((eb) => [
      "s.id",
      "s.ticker",
      "s.name",
      jsonObjectFrom(
        eb
          .selectFrom("user_stocks as us")
          .select(LEVEL_COLUMNS)
          .whereRef("us.stock_id", "=", "s.id")
          .where("us.user_id", "=", callerId ?? -1)
          .where("us.active", "=", 1),
      ).as("own"),
      jsonObjectFrom(
        eb
          .selectFrom("uip_stocks as u")
          .select(LEVEL_COLUMNS)
          .whereRef("u.stock_id", "=", "s.id")
          .where("u.active", "=", 1),
      ).as("uip"),
      jsonArrayFrom(
        eb
          .selectFrom("price_history as h")
          .select(["h.day", "h.atm_iv"])
          .whereRef("h.stock_id", "=", "s.id")
          .where("h.atm_iv", "is not", null)
          .orderBy("h.day", "desc")
          .limit(ivLimit + 1),
      ).as("ivs"),
      jsonArrayFrom(
        eb
          .selectFrom("trade_recommendations as t")
          .select("t.option_identifier")
          .whereRef("t.stock_id", "=", "s.id")
          .where("t.active", "=", 1),
      ).as("active"),
      eb
        .selectFrom("recommendation_runs as r")
        .select(({ fn }) => fn.max("r.created_at").as("at"))
        .whereRef("r.stock_id", "=", "s.id")
        .where(sql<boolean>`r.inputs @> '{"announced": true}'::jsonb`)
        .as("last_announced"),
    ])
    .where("s.ticker", "=", ticker)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    stock: { id: row.id, ticker: row.ticker, name: row.name },
    own: row.own as ReferenceLevels | null,
    uip: row.uip as ReferenceLevels | null,
    ivHistory: (row.ivs as { day: string; atm_iv: number }[]).reverse(),
    active: (row.active as { option_identifier: string }[]).map((a) => a.option_identifier),
    lastAnnounced: row.last_announced ? new Date(row.last_announced as Date | string) : null,
  };
}

const iso = (value: Date | string) => new Date(value).toISOString();
const parseJson = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;

/** A stored row as the contract's TradeRecommendation (the extra fields unpacked, the score kept back). */
function toContract(r: Selectable<TradeRecommendationsTable>): TradeRecommendation {
  const { score: _score, rank: _rank, ...extra } = parseJson<StoredExtra>(r.extra);
  return {
    id: r.id,
    stock_id: r.stock_id,
    trade_recommendations_id: r.run_id,
    option_identifier: r.option_identifier,
    put_or_call: r.put_or_call === "call" ? "call" : "put",
    volume: r.volume,
    expiration_date: r.expiration_date,
    strike_price: r.strike_price,
    current_stock_price: r.current_stock_price,
    current_option_price: r.current_option_price,
    option_weekly_low_price: r.option_weekly_low_price,
    option_weekly_high_price: r.option_weekly_high_price,
    calculated_monthly_roi: r.calculated_monthly_roi,
    implied_volatility: r.implied_volatility,
    historical_volatility: r.historical_volatility,
    delta: r.delta,
    theta: r.theta,
    vega: r.vega,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    active: r.active === 1 ? 1 : 0,
    ...extra,
  };
}

/**
 * A row as a reader sees it: buy_level and below_conservative_iv against `levels` (the levels that
 * reader may see), none when null. The engine's comparison, so ranking and display agree.
 */
export function seenWith(row: TradeRecommendation, levels: ReferenceLevels | null): TradeRecommendation {
  const flags = levels ? levelFlags(row.strike_price, levels) : null;
  return { ...row, buy_level: flags?.buyLevel ?? null, below_conservative_iv: flags?.belowConservativeIv ?? false };
}

/** The watchlist or UIP row's levels as the query returns them (all null when the join found no row). */
function levelsOf(r: Record<string, unknown>, prefix: "own" | "uip"): ReferenceLevels | null {
  if (r[`${prefix}_row`] === null || r[`${prefix}_row`] === undefined) return null;
  return Object.fromEntries(LEVEL_COLUMNS.map((c) => [c, Number(r[`${prefix}_${c}`])])) as never;
}

/**
 * Stored rows (the caller adds the where) joined with the levels `viewerId` may see them against,
 * in the same query: the viewer's own watchlist row of the stock, else the shared UIP row, else none. Never
 * another user's: the stored flags may come from the generating user's private levels (ADR 0007).
 */
function viewedRows(db: Db, viewerId: number | null) {
  return db
    .selectFrom("trade_recommendations as t")
    .leftJoin("user_stocks as own", (join) =>
      join.onRef("own.stock_id", "=", "t.stock_id").on("own.user_id", "=", viewerId ?? -1),
    )
    .leftJoin("uip_stocks as uip", "uip.stock_id", "t.stock_id")
    .selectAll("t")
    .select([
      "own.id as own_row",
      ...LEVEL_COLUMNS.map((c) => `own.${c} as own_${c}` as const),
      "uip.id as uip_row",
      ...LEVEL_COLUMNS.map((c) => `uip.${c} as uip_${c}` as const),
    ]);
}

function toViewed(r: Selectable<TradeRecommendationsTable> & Record<string, unknown>): TradeRecommendation {
  return seenWith(toContract(r), levelsOf(r, "own") ?? levelsOf(r, "uip"));
}

/**
 * The active recommendations of a stock, soonest expiry first, best first within it; their flags
 * against the levels the viewer may see (viewedRows).
 */
export async function activeRecommendations(
  db: Db,
  stockId: number,
  viewerId: number | null,
): Promise<TradeRecommendation[]> {
  const rows = await viewedRows(db, viewerId)
    .where("t.stock_id", "=", stockId)
    .where("t.active", "=", 1)
    .orderBy("t.expiration_date")
    .orderBy(sql`(t.extra->>'rank')::int`)
    .orderBy("t.id")
    .execute();
  return rows.map(toViewed);
}

/** One recommendation by id, active or retired, flagged for the viewer; undefined when there is none. */
export async function recommendationById(
  db: Db,
  id: number,
  viewerId: number | null,
): Promise<TradeRecommendation | undefined> {
  const row = await viewedRows(db, viewerId).where("t.id", "=", id).executeTakeFirst();
  return row ? toViewed(row) : undefined;
}

/**
 * One summary per stock with active recommendations, by ticker. Implied volatility is the run's
 * ~30-day at-the-money IV; current_price the price the run used. average_iv is the viewer's own
 * intrinsic value (their watchlist row), else the shared UIP value, else 0: never another user's.
 * Starts from the active rows (a partial index), not from the runs, which are kept forever.
 */
export async function topLine(db: Db, viewerId: number | null): Promise<TopLineRecommendation[]> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("trade_recommendations")
        .select(({ fn }) => ["stock_id", "run_id", fn.countAll<number>().as("count")])
        .where("active", "=", 1)
        .groupBy(["stock_id", "run_id"])
        .as("t"),
    )
    .innerJoin("recommendation_runs as r", "r.id", "t.run_id")
    .innerJoin("stocks as s", "s.id", "t.stock_id")
    .leftJoin("user_stocks as own", (join) =>
      join.onRef("own.stock_id", "=", "s.id").on("own.user_id", "=", viewerId ?? -1),
    )
    .leftJoin("uip_stocks as uip", "uip.stock_id", "s.id")
    .select([
      "r.created_at",
      "r.inputs",
      "s.id",
      "s.ticker",
      "s.name",
      "t.count",
      "own.average_iv as own_iv",
      "uip.average_iv as uip_iv",
    ])
    .orderBy("s.ticker")
    .execute();
  return rows.map((r) => ({
    ...topLineOf({
      stock: { id: r.id, ticker: r.ticker, name: r.name },
      inputs: parseJson<RunInputs>(r.inputs),
      createdAt: r.created_at,
      count: Number(r.count),
    }),
    average_iv: r.own_iv ?? r.uip_iv ?? 0,
  }));
}

/**
 * The levels anyone may see for a stock: the shared UIP row's, else null. What goes to every
 * browser (the live updates) is computed from these only.
 */
export async function publicLevels(db: Db, stockId: number): Promise<ReferenceLevels | null> {
  const row = await db
    .selectFrom("uip_stocks")
    .select(LEVEL_COLUMNS)
    .where("stock_id", "=", stockId)
    .executeTakeFirst();
  return row ?? null;
}

/** A run's summary line. */
export function topLineOf(run: {
  stock: { id: number; ticker: string; name: string };
  inputs: RunInputs;
  createdAt: Date | string;
  count: number;
}): TopLineRecommendation {
  return {
    ticker: run.stock.ticker,
    stock_id: run.stock.id,
    stock_name: run.stock.name,
    current_price: run.inputs.spot,
    implied_volatility: run.inputs.atm_implied_volatility ?? 0,
    historical_volatility: run.inputs.historical_volatility,
    average_iv: run.inputs.levels.average_iv ?? 0,
    recommendation_date: iso(run.createdAt),
    trade_recommendation_count: run.count,
  };
}
