/**
 * Recommendations in the database. A generation run is one recommendation_runs row (its inputs,
 * for scoring outcomes later) and its trade_recommendations rows: the pool of puts any trader's
 * filters could let through, each marked with whether the default view picked it (ADR 0022). Each
 * reader's view of the pool is computed when they read (selection.ts). Pool rows are written once
 * and never updated (ADR 0040): a stock's active set is the run active_recommendation_runs points
 * at, flipped in the run's own transaction, which first locks the stock's row, so two processes
 * generating the same ticker at once cannot leave two active sets and a reader sees the old run or
 * the new one, never a mix. A replaced run's rows stay for scoring and links until pruned.
 * Generation is one of the hot paths (every flagged ticker, every interval), so it keeps its round
 * trips few: one read before, five statements in the transaction, none after.
 */
import { sql, type Selectable } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import type { Db } from "#provider/db/client.ts";
import type { TradeRecommendationsTable } from "#provider/db/schema.ts";
import type { MarketSource, TopLineRecommendation, TradeRecommendation } from "#contract/entities.ts";
import type { Candidate } from "./engine.ts";
import type { ReferenceLevels } from "./level-flags.ts";
import { LEVEL_COLUMNS } from "./levels.ts";
import type { CountCache } from "./count-cache.ts";
import { figuresOf, PER_EXPIRY, selectFor, type ReaderFigures, type TraderFilterValues } from "./selection.ts";
import { readerLevels } from "./reference-levels.ts";

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
    const run = await tx
      .insertInto("recommendation_runs")
      .values({ stock_id: input.stockId, inputs: JSON.stringify(input.inputs), created_at: now })
      .returning(["id", "created_at"])
      .executeTakeFirstOrThrow();
    const values = input.selected.map(({ candidate: c, weeklyLow, weeklyHigh, rank }) => ({
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
      bid: c.bid,
      ask: c.ask,
      mid: c.mid,
      open_interest: c.openInterest,
      days_to_expiry: c.daysToExpiry,
      annualized_roi: c.annualizedRoi,
      breakeven: c.breakeven,
      collateral: c.collateral,
      cushion: c.cushion,
      probability_of_profit: c.probabilityOfProfit,
      probability_of_profit_delta: c.probabilityOfProfitDelta,
      probability_of_assignment: c.probabilityOfAssignment,
      earnings_date: input.earningsDate,
      earnings_before_expiry: c.earningsBeforeExpiry,
      iv_rank: input.ivRank,
      iv_percentile: input.ivPercentile,
      iv_history_days: input.ivHistoryDays,
      rate: input.inputs.rate,
      dividend_yield: input.inputs.dividend_yield,
      intrinsic_value: c.intrinsicValue,
      time_value: c.timeValue,
      spread: c.spread,
      run_buy_level: c.buyLevel,
      run_below_conservative_iv: c.belowConservativeIv,
      default_score: c.score,
      default_rank: rank,
      market_source: input.inputs.source ?? null,
      quoted_at: input.inputs.as_of,
      bid_source: c.bidSource ?? "quote",
      created_at: now,
      updated_at: now,
    }));
    // Only the ids come back: reading whole rows back costs more than the insert itself on PGlite.
    const idOf = values.length ? await insertPool(tx, values) : new Map<string, number>();
    const rows: Selectable<TradeRecommendationsTable>[] = values.map((v) => ({
      ...v,
      id: idOf.get(v.option_identifier)!,
      extra: {},
    }));
    // The flip: from this commit on, readers see this run instead of the one it replaces.
    await tx
      .insertInto("active_recommendation_runs")
      .values({ stock_id: input.stockId, run_id: run.id })
      .onConflict((oc) => oc.column("stock_id").doUpdateSet({ run_id: run.id }))
      .execute();
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
      pool: rows.map((row) => toStored(row, true)),
    };
  });
}

/** The columns insertPool writes (the rest keep their defaults). */
const POOL_COLUMNS = [
  "run_id",
  "stock_id",
  "option_identifier",
  "put_or_call",
  "expiration_date",
  "strike_price",
  "current_stock_price",
  "current_option_price",
  "option_weekly_low_price",
  "option_weekly_high_price",
  "calculated_monthly_roi",
  "implied_volatility",
  "historical_volatility",
  "delta",
  "theta",
  "vega",
  "volume",
  "bid",
  "ask",
  "mid",
  "open_interest",
  "days_to_expiry",
  "annualized_roi",
  "breakeven",
  "collateral",
  "cushion",
  "probability_of_profit",
  "probability_of_profit_delta",
  "probability_of_assignment",
  "earnings_date",
  "earnings_before_expiry",
  "iv_rank",
  "iv_percentile",
  "iv_history_days",
  "rate",
  "dividend_yield",
  "intrinsic_value",
  "time_value",
  "spread",
  "run_buy_level",
  "run_below_conservative_iv",
  "default_score",
  "default_rank",
  "market_source",
  "quoted_at",
  "bid_source",
  "created_at",
  "updated_at",
] as const;
type PoolRow = { [K in (typeof POOL_COLUMNS)[number]]: unknown };

/**
 * A run's pool in one statement with one parameter (ADR 0040): the rows as one JSON text, which
 * the database turns into rows of the table's own type (json_populate_recordset), and the new ids
 * back as one JSON object, symbol → id. Building 47 typed arrays and parsing a result row per put
 * in JavaScript cost more than the database's work on PGlite (ADR 0033 had one array per column).
 */
async function insertPool(tx: Db, values: readonly PoolRow[]): Promise<Map<string, number>> {
  const columns = sql.join(POOL_COLUMNS.map((n) => sql.ref(n)));
  const { rows } = await sql<{ ids: Record<string, number> | string }>`
    WITH inserted AS (
      INSERT INTO trade_recommendations (${columns})
      SELECT ${columns} FROM json_populate_recordset(NULL::trade_recommendations, ${JSON.stringify(values)}::json)
      RETURNING id, option_identifier
    )
    SELECT json_object_agg(option_identifier, id)::text AS ids FROM inserted`.execute(tx);
  const ids = rows[0]?.ids ?? "{}";
  return new Map(Object.entries(typeof ids === "string" ? (JSON.parse(ids) as Record<string, number>) : ids));
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
          .selectFrom("active_recommendation_runs as a")
          .innerJoin("trade_recommendations as t", "t.run_id", "a.run_id")
          .select("t.option_identifier")
          .whereRef("a.stock_id", "=", "s.id")
          // The default view's picks (rows stored before the pool all were picks, rank 1 and up).
          .where("t.default_rank", ">", 0),
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

/** A stored row as every reader shares it (fields older rows lack filled in); `active` if its run is. */
function toStored(r: Selectable<TradeRecommendationsTable>, active: boolean): StoredRecommendation {
  const intrinsic = r.intrinsic_value ?? Math.max(0, r.strike_price - r.current_stock_price);
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
    active: active ? 1 : 0,
    open_interest: r.open_interest,
    bid: r.bid,
    ask: r.ask,
    days_to_expiry: r.days_to_expiry,
    annualized_roi: r.annualized_roi,
    breakeven: r.breakeven,
    collateral: r.collateral,
    cushion: r.cushion,
    probability_of_profit: r.probability_of_profit,
    probability_of_profit_delta: r.probability_of_profit_delta,
    earnings_date: r.earnings_date,
    earnings_before_expiry: r.earnings_before_expiry,
    iv_rank: r.iv_rank,
    mid: r.mid ?? (r.bid + r.ask) / 2,
    intrinsic_value: intrinsic,
    time_value: r.time_value ?? Math.max(0, r.bid - intrinsic),
    spread: r.spread ?? (r.bid + r.ask > 0 ? (2 * (r.ask - r.bid)) / (r.bid + r.ask) : 1),
    probability_of_assignment: r.probability_of_assignment ?? null,
    iv_percentile: r.iv_percentile ?? null,
    iv_history_days: r.iv_history_days ?? 0,
    rate: r.rate ?? 0,
    dividend_yield: r.dividend_yield ?? null,
    market_source: (r.market_source as StoredRecommendation["market_source"]) ?? null,
    quoted_at: r.quoted_at === null ? null : iso(r.quoted_at),
    bid_source: r.bid_source ?? "quote",
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
  { all = false }: { all?: boolean } = {},
): TradeRecommendation[] {
  const { selected, more, nearest } = selectFor(pool, levels, filters);
  if (nearest) return [withFigures(nearest.option, nearest.figures, 0, true)];
  const shown = selected.map((s) => withFigures(s.option, s.figures, s.rank, false));
  // All of them on request: the ones beyond the best PER_EXPIRY of an expiry follow, unranked.
  return all ? [...shown, ...more.map((s) => withFigures(s.option, s.figures, 0, false))] : shown;
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
 * `active_run` is the row's run when that run is its stock's active set, else null.
 */
function viewedRows(db: Db, viewerId: number | null) {
  return db
    .selectFrom("trade_recommendations as t")
    .leftJoin("active_recommendation_runs as a", "a.run_id", "t.run_id")
    .leftJoin("user_stocks as own", (join) =>
      join.onRef("own.stock_id", "=", "t.stock_id").on("own.user_id", "=", viewerId ?? -1),
    )
    .leftJoin("uip_stocks as uip", "uip.stock_id", "t.stock_id")
    .selectAll("t")
    .select([
      "a.run_id as active_run",
      "own.id as own_row",
      ...LEVEL_COLUMNS.map((c) => `own.${c} as own_${c}` as const),
      "uip.id as uip_row",
      ...LEVEL_COLUMNS.map((c) => `uip.${c} as uip_${c}` as const),
    ]);
}

const viewerLevels = (r: Record<string, unknown>) => readerLevels(levelsOf(r, "own"), levelsOf(r, "uip")).levels;

/**
 * The viewer's list of a stock's active pool (readerView), against the levels they may see
 * (viewedRows) and their filters.
 */
export async function activeRecommendations(
  db: Db,
  stockId: number,
  viewerId: number | null,
  filters: TraderFilterValues,
  view: { all?: boolean } = {},
): Promise<TradeRecommendation[]> {
  const rows = await viewedRows(db, viewerId).where("a.stock_id", "=", stockId).orderBy("t.id").execute();
  if (rows.length === 0) return [];
  return readerView(
    rows.map((row) => toStored(row, true)),
    viewerLevels(rows[0]!),
    filters,
    view,
  );
}

/**
 * Each stock's list as one reader sees it (selectFor), for several stocks at once, from a narrow
 * read: only what the selection reads, of the active pools' puts that pass the reader's market
 * filters in SQL (readerCounts's conditions; selectFor checks them again). The best puts across a
 * trader's plan rank on this (ADR 0081): reading whole rows of 30 pools took over a second on PGlite.
 */
export async function selectedOfActivePools(
  db: Db,
  levelsOf: ReadonlyMap<number, ReferenceLevels | null>,
  f: TraderFilterValues,
): Promise<{ stockId: number; id: number; strike: number; score: number }[]> {
  const stockIds = [...levelsOf.keys()];
  if (stockIds.length === 0) return [];
  const mid = sql<number>`((t.bid + t.ask) / 2)`;
  const rows = await db
    .selectFrom("trade_recommendations as t")
    .select([
      "t.id",
      "t.stock_id",
      "t.strike_price",
      "t.expiration_date",
      "t.current_stock_price",
      "t.bid",
      "t.ask",
      "t.delta",
      "t.days_to_expiry",
      "t.open_interest",
      "t.earnings_before_expiry",
      "t.probability_of_profit",
      "t.rate",
    ])
    // The active runs' ids as one array first, so the run_id index finds their rows (ADR 0040).
    .where(
      sql<boolean>`t.run_id = ANY(ARRAY(SELECT run_id FROM active_recommendation_runs WHERE stock_id = ANY(${stockIds}::int[])))`,
    )
    .where(sql<boolean>`abs(t.delta) >= ${f.delta_min - 1e-12}::float8`)
    .where(sql<boolean>`abs(t.delta) <= ${f.delta_max + 1e-12}::float8`)
    .where("t.days_to_expiry", ">=", f.dte_min)
    .where("t.days_to_expiry", "<=", f.dte_max)
    .where(sql<boolean>`t.bid >= ${f.min_bid - 1e-9}::float8`)
    .where("t.open_interest", ">=", f.min_open_interest)
    .where(
      sql<boolean>`(CASE WHEN ${mid} > 0 THEN (t.ask - t.bid) / ${mid} ELSE 'Infinity'::float8 END) <= ${f.max_spread + 1e-12}::float8`,
    )
    .$if(f.skip_earnings, (q) => q.where(sql<boolean>`NOT coalesce(t.earnings_before_expiry, false)`))
    .orderBy("t.id")
    .execute();
  const byStock = new Map<number, typeof rows>();
  for (const row of rows) {
    const group = byStock.get(row.stock_id);
    if (group) group.push(row);
    else byStock.set(row.stock_id, [row]);
  }
  const picked: { stockId: number; id: number; strike: number; score: number }[] = [];
  for (const [stockId, group] of byStock) {
    const { selected } = selectFor(
      group.map((r) => ({ ...r, earnings_before_expiry: r.earnings_before_expiry ?? false })),
      levelsOf.get(stockId) ?? null,
      f,
    );
    for (const s of selected) {
      picked.push({ stockId, id: s.option.id, strike: s.option.strike_price, score: s.figures.score });
    }
  }
  return picked;
}

/** Stored puts by id, active or retired, with the viewer's figures (rank 0, each read alone). */
export async function recommendationsByIds(
  db: Db,
  ids: readonly number[],
  viewerId: number,
  filters: TraderFilterValues,
): Promise<Map<number, TradeRecommendation>> {
  const found = new Map<number, TradeRecommendation>();
  if (ids.length === 0) return found;
  const rows = await viewedRows(db, viewerId)
    .where("t.id", "in", [...ids])
    .execute();
  for (const row of rows) {
    const stored = toStored(row, row.active_run !== null);
    found.set(row.id, withFigures(stored, figuresOf(stored, viewerLevels(row), filters), 0, false));
  }
  return found;
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
  const stored = toStored(row, row.active_run !== null);
  const levels = viewerLevels(row);
  return withFigures(stored, figuresOf(stored, levels, filters), 0, false);
}

/**
 * One summary per stock with active recommendations, by ticker. Implied volatility is the run's
 * ~30-day at-the-money IV; current_price the price the run used. average_iv is the viewer's own
 * intrinsic value (their watchlist row), else the shared UIP value, else 0: never another user's;
 * the count is what the viewer's filters let through (selection.ts). Starts from each stock's
 * active run (ADR 0040), one that stored at least one put; reads of the pool only the few fields
 * the selection needs.
 */
export async function topLine(
  db: Db,
  viewerId: number | null,
  filters: TraderFilterValues,
  cache?: CountCache,
): Promise<TopLineRecommendation[]> {
  return (await topLinePage(db, viewerId, filters, {}, cache)).items;
}

/** Which part of the top line a view shows (ADR 0102). */
export interface TopLineSlice {
  /** Cards from `offset`, at most `limit` (every one without). */
  limit?: number | undefined;
  offset?: number | undefined;
  /** Only stocks whose name or ticker contains this, case-insensitive. */
  q?: string | undefined;
  /** Only this stock. */
  ticker?: string | undefined;
}

/**
 * A page of topLine (ADR 0102): the stocks in order are read narrow (ticker and run, no inputs), and
 * only the page's runs are read whole and counted, so a view's work follows the cards it shows,
 * not the stocks anyone flagged. `total` is how many stocks the slice's search matches.
 */
export async function topLinePage(
  db: Db,
  viewerId: number | null,
  filters: TraderFilterValues,
  slice: TopLineSlice,
  cache?: CountCache,
): Promise<{ items: TopLineRecommendation[]; total: number }> {
  const needle = slice.q?.trim().toLowerCase() ?? "";
  const listed = await db
    .selectFrom("active_recommendation_runs as t")
    .innerJoin("stocks as s", "s.id", "t.stock_id")
    // A run that stored no put has no top-line entry, as before ADR 0040 (asked of the cache when there is one).
    .$if(!cache, (q) =>
      q.where(({ exists, selectFrom }) =>
        exists(selectFrom("trade_recommendations as p").select("p.id").whereRef("p.run_id", "=", "t.run_id")),
      ),
    )
    // strpos, not LIKE: a typed % or _ is a character to find, as in the screen's filterByName.
    .$if(needle !== "", (q) =>
      q.where(sql<boolean>`(strpos(lower(s.name), ${needle}) > 0 OR strpos(lower(s.ticker), ${needle}) > 0)`),
    )
    .$if(slice.ticker !== undefined, (q) => q.where("s.ticker", "=", slice.ticker!))
    .select(["s.id", "s.ticker", "t.run_id"])
    .orderBy("s.ticker")
    .execute()
    .then((rows) => (cache ? withStoredPuts(db, cache, rows) : rows));
  const offset = slice.offset ?? 0;
  const page = listed.slice(offset, slice.limit === undefined ? undefined : offset + slice.limit);
  if (page.length === 0) return { items: [], total: listed.length };
  const stockIds = page.map((r) => r.id);
  const runIds = page.map((r) => r.run_id);
  const [runs, counts, own, uip] = await Promise.all([
    db
      .selectFrom("recommendation_runs as r")
      .innerJoin("stocks as s", "s.id", "r.stock_id")
      .select(["r.id as run_id", "r.created_at", "r.inputs", "s.name"])
      .where(sql<boolean>`r.id = ANY(${runIds}::int[])`)
      .execute(),
    cache ? cachedReaderCounts(db, cache, viewerId, filters, stockIds) : readerCounts(db, viewerId, filters, runIds),
    db
      .selectFrom("user_stocks")
      .select(["stock_id", "average_iv", "conservative_iv"])
      .where("user_id", "=", viewerId ?? -1)
      .where(sql<boolean>`stock_id = ANY(${stockIds}::int[])`)
      .execute(),
    db
      .selectFrom("uip_stocks")
      .select(["stock_id", "average_iv", "conservative_iv"])
      .where(sql<boolean>`stock_id = ANY(${stockIds}::int[])`)
      .execute(),
  ]);
  const runById = new Map(runs.map((r) => [r.run_id, r]));
  const averageByStock = new Map<number, number>();
  for (const row of uip) averageByStock.set(row.stock_id, row.average_iv);
  for (const row of own) averageByStock.set(row.stock_id, row.average_iv);
  const ownConservative = new Map(own.map((row) => [row.stock_id, Number(row.conservative_iv)]));
  const uipConservative = new Map(uip.map((row) => [row.stock_id, Number(row.conservative_iv)]));
  const items = page.map((p) => {
    const r = runById.get(p.run_id)!;
    // The conservative value the reader's filter uses, and whose it is (readerLevels, ADR 0083).
    const mine = ownConservative.get(p.id) ?? 0;
    const shared = uipConservative.get(p.id) ?? 0;
    const conservative =
      mine > 0
        ? { conservative_iv: mine, conservative_source: "watchlist" as const }
        : shared > 0
          ? { conservative_iv: shared, conservative_source: "uip" as const }
          : { conservative_iv: 0, conservative_source: "none" as const };
    return {
      ...topLineOf({
        stock: { id: p.id, ticker: p.ticker, name: r.name },
        inputs: parseJson<RunInputs>(r.inputs),
        createdAt: r.created_at,
        count: counts.get(p.id) ?? 0,
      }),
      average_iv: averageByStock.get(p.id) ?? 0,
      ...conservative,
    };
  });
  return { items, total: listed.length };
}

/** The IV figures of a stock's active run, as its cards show them; null when the stock has none. */
export async function activeRunIv(
  db: Db,
  stockId: number,
): Promise<{ ivRank: number | null; ivPercentile: number | null; ivHistoryDays: number } | null> {
  const row = await db
    .selectFrom("active_recommendation_runs as a")
    .innerJoin("recommendation_runs as r", "r.id", "a.run_id")
    .select("r.inputs")
    .where("a.stock_id", "=", stockId)
    .executeTakeFirst();
  if (!row) return null;
  const inputs = parseJson<RunInputs>(row.inputs);
  return {
    ivRank: inputs.iv_rank ?? null,
    ivPercentile: inputs.iv_percentile ?? null,
    ivHistoryDays: inputs.iv_history_days ?? 0,
  };
}

/**
 * How many puts of each stock's active pool `viewerId` would see (selectFor's `selected.length`),
 * counted in SQL (ADR 0033): the same filters as passesMarketFilters, with the same tolerances and
 * the same arithmetic, then the conservative value of the levels they may see (their watchlist row,
 * else the UIP row), then at most PER_EXPIRY per expiry. store.test.ts holds it equal to selectFor.
 */
export async function readerCounts(
  db: Db,
  viewerId: number | null,
  f: TraderFilterValues,
  /** Only these runs (active ones); every active run when omitted. */
  runIds?: readonly number[],
): Promise<Map<number, number>> {
  const mid = sql<number>`((t.bid + t.ask) / 2)`;
  // readerLevels' rule: the viewer's own value when set (> 0), else the UIP row's (ADR 0083).
  const conservative = sql<number>`(CASE WHEN own.id IS NOT NULL AND own.conservative_iv > 0 THEN own.conservative_iv ELSE uip.conservative_iv END)`;
  const rows = await db
    .selectFrom("trade_recommendations as t")
    .leftJoin("user_stocks as own", (join) =>
      join.onRef("own.stock_id", "=", "t.stock_id").on("own.user_id", "=", viewerId ?? -1),
    )
    .leftJoin("uip_stocks as uip", "uip.stock_id", "t.stock_id")
    .select(({ fn }) => ["t.stock_id", fn.countAll<number>().as("n")])
    // The active runs' ids as one array first: the run_id index then finds their rows, where a join
    // let PGlite (never analysed) scan every kept run's rows (ADR 0040).
    .where(
      runIds
        ? sql<boolean>`t.run_id = ANY(${[...runIds]}::int[])`
        : sql<boolean>`t.run_id = ANY(ARRAY(SELECT run_id FROM active_recommendation_runs))`,
    )
    .where(sql<boolean>`abs(t.delta) >= ${f.delta_min - 1e-12}::float8`)
    .where(sql<boolean>`abs(t.delta) <= ${f.delta_max + 1e-12}::float8`)
    .where("t.days_to_expiry", ">=", f.dte_min)
    .where("t.days_to_expiry", "<=", f.dte_max)
    .where(sql<boolean>`t.bid >= ${f.min_bid - 1e-9}::float8`)
    .where("t.open_interest", ">=", f.min_open_interest)
    .where(
      sql<boolean>`(CASE WHEN ${mid} > 0 THEN (t.ask - t.bid) / ${mid} ELSE 'Infinity'::float8 END) <= ${f.max_spread + 1e-12}::float8`,
    )
    .$if(f.skip_earnings, (q) => q.where(sql<boolean>`NOT coalesce(t.earnings_before_expiry, false)`))
    .$if(f.at_or_below_conservative, (q) =>
      q.where(sql<boolean>`(coalesce(${conservative}, 0) <= 0 OR t.strike_price <= ${conservative})`),
    )
    .groupBy(["t.stock_id", "t.expiration_date"])
    .execute();
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.stock_id, (counts.get(r.stock_id) ?? 0) + Math.min(PER_EXPIRY, Number(r.n)));
  return counts;
}

/** The runs that stored at least one put; whether one did never changes (ADR 0040), so it is remembered. */
async function withStoredPuts<T extends { run_id: number }>(db: Db, cache: CountCache, runs: T[]): Promise<T[]> {
  const key = (runId: number) => `${runId}|stored`;
  const unknown = runs.filter((r) => cache.get(key(r.run_id)) === undefined).map((r) => r.run_id);
  if (unknown.length) {
    const stored = new Set(
      (
        await db
          .selectFrom("trade_recommendations")
          .select("run_id")
          .distinct()
          .where(sql<boolean>`run_id = ANY(${unknown}::int[])`)
          .execute()
      ).map((r) => r.run_id),
    );
    for (const runId of unknown) cache.set(key(runId), stored.has(runId) ? 1 : 0);
  }
  return runs.filter((r) => cache.get(key(r.run_id)) === 1);
}

/**
 * readerCounts through a cache (ADR 0086): the count of an active run depends only on its rows
 * (written once), the reader's filters and the conservative value it is held against (their
 * watchlist row's, else the UIP row's), so it is looked up by those and counted in SQL only for
 * the runs not seen with them yet. A /insights view then reads one row per active run, not every
 * put of every active pool.
 */
export async function cachedReaderCounts(
  db: Db,
  cache: CountCache,
  viewerId: number | null,
  f: TraderFilterValues,
  /** Only these stocks' active runs (a page of the top line, ADR 0102); every one when omitted. */
  stockIds?: readonly number[],
): Promise<Map<number, number>> {
  const runs = await db
    .selectFrom("active_recommendation_runs as a")
    .leftJoin("user_stocks as own", (join) =>
      join.onRef("own.stock_id", "=", "a.stock_id").on("own.user_id", "=", viewerId ?? -1),
    )
    .leftJoin("uip_stocks as uip", "uip.stock_id", "a.stock_id")
    .select([
      "a.stock_id",
      "a.run_id",
      sql<number | null>`(CASE WHEN own.id IS NOT NULL THEN own.conservative_iv ELSE uip.conservative_iv END)`.as(
        "conservative",
      ),
    ])
    .$if(stockIds !== undefined, (q) => q.where(sql<boolean>`a.stock_id = ANY(${[...(stockIds ?? [])]}::int[])`))
    .execute();
  const filters = JSON.stringify(Object.entries(f).sort(([a], [b]) => (a < b ? -1 : 1)));
  const keyOf = (run: (typeof runs)[number]) =>
    `${run.run_id}|${f.at_or_below_conservative ? String(run.conservative ?? "") : ""}|${filters}`;
  const counts = new Map<number, number>();
  const missing: typeof runs = [];
  for (const run of runs) {
    const count = cache.get(keyOf(run));
    if (count === undefined) missing.push(run);
    else counts.set(run.stock_id, count);
  }
  if (missing.length) {
    const fresh = await readerCounts(
      db,
      viewerId,
      f,
      missing.map((r) => r.run_id),
    );
    for (const run of missing) {
      const count = fresh.get(run.stock_id) ?? 0;
      cache.set(keyOf(run), count);
      counts.set(run.stock_id, count);
    }
  }
  return counts;
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
