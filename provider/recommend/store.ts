/**
 * Recommendations in the database. A generation run is one recommendation_runs row (its inputs,
 * for scoring outcomes later) and its trade_recommendations rows: the pool of puts any trader's
 * filters could let through, each marked with whether the default view picked it (ADR 0022). Each
 * reader's view of the pool is computed when they read (selection.ts). Storing a run retires the
 * ticker's previous set (active = 0, kept for scoring) in the same transaction, which first locks
 * the stock's row, so two processes generating the same ticker at once cannot leave two active sets.
 * Generation is one of the hot paths (every flagged ticker, every interval), so it keeps its round
 * trips few: one read before, five statements in the transaction, none after.
 */
import { sql, type Selectable } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import type { Db } from "../db/client.ts";
import type { TradeRecommendationsTable } from "../db/schema.ts";
import type { MarketSource, TopLineRecommendation, TradeRecommendation } from "../../contract/entities.ts";
import type { Candidate } from "./engine.ts";
import type { ReferenceLevels } from "./level-flags.ts";
import { LEVEL_COLUMNS } from "./levels.ts";
import { figuresOf, selectFor, type ReaderFigures, type TraderFilterValues } from "./selection.ts";

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
  /**
   * Not served as stored: the score under the default filters and the run's levels, and the row's
   * place within its expiry in that default view (1 = best; 0 = in the pool but not picked by it).
   */
  score: number;
  rank: number;
  // Added with per-reader selection (ADR 0022); rows stored before lack them (toStored fills them in).
  /** Whether the default view (default filters, the run's levels) showed this put. */
  default_pick?: boolean;
  mid?: number;
  intrinsic_value?: number;
  time_value?: number;
  spread?: number;
  probability_of_assignment?: number;
  iv_percentile?: number | null;
  iv_history_days?: number;
  rate?: number;
  // Where the figures came from (docs/product.md#states-option-card); rows stored before lack them.
  market_source?: MarketSource;
  /** When the chain's prices were made (its asOf), ISO. */
  quoted_at?: string;
  bid_source?: "quote" | "last";
}

/** The contract's fields that depend on the reader (their levels, filters and commission). */
type ReaderKeys =
  | "buy_level"
  | "below_conservative_iv"
  | "commission"
  | "net_return"
  | "net_monthly_return"
  | "net_annualized_return"
  | "tbill_return"
  | "excess_return"
  | "at_or_below_conservative"
  | "score"
  | "rank"
  | "nearest_above_conservative";

/** A stored put as every reader shares it: the contract's row without the reader's own figures. */
export type StoredRecommendation = Omit<TradeRecommendation, ReaderKeys>;

/** What a run records about itself, for the top line and for scoring the outcome later. */
export interface RunInputs {
  ticker: string;
  as_of: string;
  /** The market source of the chain (absent in older runs). */
  source?: MarketSource;
  spot: number;
  rate: number;
  dividend_yield: number;
  historical_volatility: number;
  hv_returns: number;
  atm_implied_volatility: number | null;
  iv_rank: number | null;
  /** Added with ADR 0022 (absent in older runs). */
  iv_percentile?: number | null;
  iv_history_days?: number;
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
  /** Place within its expiry in the default view; 0 when that view did not pick it. */
  rank: number;
}

export interface StoreRunInput {
  stockId: number;
  inputs: RunInputs;
  selected: SelectedOption[];
  earningsDate: string | null;
  ivRank: number | null;
  ivPercentile: number | null;
  ivHistoryDays: number;
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
  /** The new pool as every reader shares it; readerView makes one reader's list of it. */
  pool: StoredRecommendation[];
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
        default_pick: rank > 0,
        mid: c.mid,
        intrinsic_value: c.intrinsicValue,
        time_value: c.timeValue,
        spread: c.spread,
        probability_of_assignment: c.probabilityOfAssignment,
        iv_percentile: input.ivPercentile,
        iv_history_days: input.ivHistoryDays,
        rate: input.inputs.rate,
        ...(input.inputs.source ? { market_source: input.inputs.source } : {}),
        quoted_at: input.inputs.as_of,
        bid_source: c.bidSource ?? "quote",
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
      pool: rows.map(toStored),
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
  /** Option symbols the active set's default view picked. */
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
          .where("t.active", "=", 1)
          // The default view's picks (rows stored before the pool all were picks, rank 1 and up).
          .where(sql<boolean>`(t.extra->>'rank')::int > 0`),
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

/** A stored row as every reader shares it (the extra fields unpacked; older rows filled in). */
function toStored(r: Selectable<TradeRecommendationsTable>): StoredRecommendation {
  const {
    score: _score,
    rank: _rank,
    default_pick: _pick,
    buy_level: _level,
    below_conservative_iv: _below,
    ...extra
  } = parseJson<StoredExtra>(r.extra);
  const intrinsic = extra.intrinsic_value ?? Math.max(0, r.strike_price - r.current_stock_price);
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
    mid: extra.mid ?? (extra.bid + extra.ask) / 2,
    intrinsic_value: intrinsic,
    time_value: extra.time_value ?? Math.max(0, extra.bid - intrinsic),
    spread: extra.spread ?? (extra.bid + extra.ask > 0 ? (2 * (extra.ask - extra.bid)) / (extra.bid + extra.ask) : 1),
    probability_of_assignment: extra.probability_of_assignment ?? null,
    iv_percentile: extra.iv_percentile ?? null,
    iv_history_days: extra.iv_history_days ?? 0,
    rate: extra.rate ?? 0,
    market_source: extra.market_source ?? null,
    quoted_at: extra.quoted_at ?? null,
    bid_source: extra.bid_source ?? "quote",
  };
}

/** A stored put with one reader's figures. */
function withFigures(row: StoredRecommendation, f: ReaderFigures, rank: number, nearest: boolean): TradeRecommendation {
  return {
    ...row,
    buy_level: f.buy_level,
    below_conservative_iv: f.below_conservative_iv,
    commission: f.commission,
    net_return: f.net_return,
    net_monthly_return: f.net_monthly_return,
    net_annualized_return: f.net_annualized_return,
    tbill_return: f.tbill_return,
    excess_return: f.excess_return,
    at_or_below_conservative: f.at_or_below_conservative,
    score: f.score,
    rank,
    nearest_above_conservative: nearest,
  };
}

/**
 * One reader's list of a stock's pool: what their filters let through, ranked for them, soonest
 * expiry first; or, when their conservative value left nothing, the one strike nearest above it.
 */
export function readerView(
  pool: readonly StoredRecommendation[],
  levels: ReferenceLevels | null,
  filters: TraderFilterValues,
): TradeRecommendation[] {
  const { selected, nearest } = selectFor(pool, levels, filters);
  if (nearest) return [withFigures(nearest.option, nearest.figures, 0, true)];
  return selected.map((s) => withFigures(s.option, s.figures, s.rank, false));
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

const viewerLevels = (r: Record<string, unknown>) => levelsOf(r, "own") ?? levelsOf(r, "uip");

/**
 * The viewer's list of a stock's active pool (readerView), against the levels they may see
 * (viewedRows) and their filters.
 */
export async function activeRecommendations(
  db: Db,
  stockId: number,
  viewerId: number | null,
  filters: TraderFilterValues,
): Promise<TradeRecommendation[]> {
  const rows = await viewedRows(db, viewerId)
    .where("t.stock_id", "=", stockId)
    .where("t.active", "=", 1)
    .orderBy("t.id")
    .execute();
  if (rows.length === 0) return [];
  return readerView(rows.map(toStored), viewerLevels(rows[0]!), filters);
}

/**
 * One stored put by id, active or retired, with the viewer's figures (their levels and
 * commission; rank 0, as it is read alone); undefined when there is none.
 */
export async function recommendationById(
  db: Db,
  id: number,
  viewerId: number | null,
  filters: TraderFilterValues,
): Promise<TradeRecommendation | undefined> {
  const row = await viewedRows(db, viewerId).where("t.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const stored = toStored(row);
  const levels = viewerLevels(row);
  return withFigures(stored, figuresOf(stored, levels, filters), 0, false);
}

/**
 * One summary per stock with active recommendations, by ticker. Implied volatility is the run's
 * ~30-day at-the-money IV; current_price the price the run used. average_iv is the viewer's own
 * intrinsic value (their watchlist row), else the shared UIP value, else 0: never another user's;
 * the count is what the viewer's filters let through (selection.ts). Starts from the active rows
 * (a partial index), not from the runs, which are kept forever; reads of the pool only the few
 * fields the selection needs.
 */
export async function topLine(
  db: Db,
  viewerId: number | null,
  filters: TraderFilterValues,
): Promise<TopLineRecommendation[]> {
  const num = <K extends string>(field: K) => sql<number>`(t.extra->>${sql.lit(field)})::float8`.as(field);
  const [runs, pool, own, uip] = await Promise.all([
    db
      .selectFrom((eb) =>
        eb
          .selectFrom("trade_recommendations")
          .select(["stock_id", "run_id"])
          .where("active", "=", 1)
          .groupBy(["stock_id", "run_id"])
          .as("t"),
      )
      .innerJoin("recommendation_runs as r", "r.id", "t.run_id")
      .innerJoin("stocks as s", "s.id", "t.stock_id")
      .select(["r.created_at", "r.inputs", "s.id", "s.ticker", "s.name"])
      .orderBy("s.ticker")
      .execute(),
    db
      .selectFrom("trade_recommendations as t")
      .where("t.active", "=", 1)
      .select([
        "t.stock_id",
        "t.strike_price",
        "t.expiration_date",
        "t.current_stock_price",
        "t.delta",
        num("bid"),
        num("ask"),
        num("days_to_expiry"),
        num("open_interest"),
        num("probability_of_profit"),
        num("rate"),
        sql<boolean>`(t.extra->>'earnings_before_expiry')::boolean`.as("earnings_before_expiry"),
      ])
      .execute(),
    db
      .selectFrom("user_stocks")
      .select(["stock_id", ...LEVEL_COLUMNS])
      .where("user_id", "=", viewerId ?? -1)
      .execute(),
    db
      .selectFrom("uip_stocks")
      .select(["stock_id", ...LEVEL_COLUMNS])
      .execute(),
  ]);
  const levelsByStock = new Map<number, ReferenceLevels>();
  for (const row of uip) levelsByStock.set(row.stock_id, row);
  for (const row of own) levelsByStock.set(row.stock_id, row);
  const poolByStock = new Map<number, (typeof pool)[number][]>();
  for (const row of pool) {
    const list = poolByStock.get(row.stock_id);
    if (list) list.push(row);
    else poolByStock.set(row.stock_id, [row]);
  }
  return runs.map((r) => {
    const levels = levelsByStock.get(r.id) ?? null;
    return {
      ...topLineOf({
        stock: { id: r.id, ticker: r.ticker, name: r.name },
        inputs: parseJson<RunInputs>(r.inputs),
        createdAt: r.created_at,
        count: selectFor(poolByStock.get(r.id) ?? [], levels, filters).selected.length,
      }),
      average_iv: levels?.average_iv ?? 0,
    };
  });
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
    iv_rank: run.inputs.iv_rank,
    iv_percentile: run.inputs.iv_percentile ?? null,
    iv_history_days: run.inputs.iv_history_days ?? 0,
  };
}
