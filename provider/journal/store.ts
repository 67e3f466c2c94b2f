import { setImmediate as nextTurn } from "node:timers/promises";
import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";
import type { Trade, TradeInput } from "#contract/entities.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import type { WheelTrade } from "./wheel.ts";

/** The trades table's queries: every one is scoped to one user. */

type Executor = Pick<Db, "selectFrom" | "insertInto" | "deleteFrom">;
type Source = Trade["source"];
/** A trade ready to store: the contract's input after validation. */
export type NewTrade = ReturnType<typeof TradeInput.parse>;

const COLUMNS = [
  "id",
  "kind",
  "ticker",
  "option_type",
  "strike",
  "expiry",
  "quantity",
  "price",
  "fees",
  "traded_at",
  "rolled_from",
  "portfolio",
  "strategy",
  "notes",
  "confidence",
  "source",
  "created_at",
  "recorded_automatically",
] as const;

type Row = Awaited<ReturnType<typeof selectTrades>>[number];

function selectTrades(db: Executor, userId: number) {
  return db
    .selectFrom("trades")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .orderBy("traded_at")
    .orderBy("id")
    .execute();
}

function toTrade(row: Row): Trade {
  const option = row.option_type !== null && row.strike !== null && row.expiry !== null;
  return {
    id: row.id,
    kind: row.kind as Trade["kind"],
    ticker: row.ticker,
    option_type: row.option_type as Trade["option_type"],
    strike: row.strike,
    expiry: row.expiry,
    occ_symbol: option
      ? formatOccSymbol({
          ticker: row.ticker,
          expiration: row.expiry!,
          type: row.option_type as "put" | "call",
          strike: row.strike!,
        })
      : null,
    quantity: row.quantity,
    price: row.price,
    fees: row.fees,
    traded_at: new Date(row.traded_at).toISOString(),
    rolled_from: row.rolled_from,
    portfolio: row.portfolio,
    strategy: row.strategy,
    notes: row.notes,
    confidence: row.confidence,
    source: row.source as Source,
    created_at: new Date(row.created_at).toISOString(),
    recorded_automatically: row.recorded_automatically,
  };
}

/** The user's trades, oldest first. */
export async function listTrades(db: Executor, userId: number): Promise<Trade[]> {
  return (await selectTrades(db, userId)).map(toTrade);
}

export async function findTrade(db: Executor, userId: number, id: number): Promise<Trade | undefined> {
  const row = await db
    .selectFrom("trades")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toTrade(row);
}

export async function insertTrade(
  db: Executor,
  userId: number,
  trade: NewTrade,
  extra: { source?: Source; importKey?: string; rolledFrom?: number; recordedAutomatically?: boolean } = {},
): Promise<Trade> {
  const row = await db
    .insertInto("trades")
    .values({
      user_id: userId,
      kind: trade.kind,
      ticker: trade.ticker,
      option_type: trade.option_type ?? null,
      strike: trade.strike ?? null,
      expiry: trade.expiry ?? null,
      quantity: trade.quantity,
      price: trade.price,
      fees: trade.fees,
      traded_at: trade.traded_at,
      rolled_from: extra.rolledFrom ?? null,
      ...(trade.portfolio ? { portfolio: trade.portfolio } : {}),
      strategy: trade.strategy ?? null,
      notes: trade.notes ?? null,
      confidence: trade.confidence ?? null,
      source: extra.source ?? "manual",
      import_key: extra.importKey ?? null,
      ...(extra.recordedAutomatically ? { recorded_automatically: true } : {}),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toTrade(row);
}

export async function deleteTrade(db: Executor, userId: number, id: number): Promise<void> {
  await db.deleteFrom("trades").where("user_id", "=", userId).where("id", "=", id).execute();
}

/** The import keys among `keys` this user already has, asked a page at a time (ADR 0073). */
export async function importedKeys(db: Executor, userId: number, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += PAGE) {
    const rows = await db
      .selectFrom("trades")
      .select("import_key")
      .where("user_id", "=", userId)
      .where("import_key", "in", keys.slice(i, i + PAGE))
      .execute();
    for (const row of rows) found.add(row.import_key!);
    await nextTurn();
  }
  return found;
}

/**
 * Imports read and write a page of rows per statement: PGlite runs a statement in this thread, so a
 * 10,000-row one would hold every other request for its whole run; and a turn of the event loop
 * between pages, since PGlite's answers chain as microtasks (docs/decisions/0073-imports-in-linear-time.md).
 */
const PAGE = 500;
/** Rows per INSERT: writing costs more a row than reading (indexes, constraints). */
const INSERT_PAGE = 100;

/** The user's trades on `tickers`, oldest first, read a page at a time. */
export async function listTradesOn(db: Executor, userId: number, tickers: string[]): Promise<Trade[]> {
  if (tickers.length === 0) return [];
  const trades: Trade[] = [];
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("trades")
      .select(COLUMNS)
      .where("user_id", "=", userId)
      .where("ticker", "in", tickers)
      .where("id", ">", after)
      .orderBy("id")
      .limit(PAGE)
      .execute();
    trades.push(...rows.map(toTrade));
    if (rows.length < PAGE) break;
    await nextTurn();
    after = rows.at(-1)!.id;
  }
  return trades;
}

/** Stores imported trades, a page of rows per statement. */
export async function insertImported(
  db: Executor,
  userId: number,
  items: readonly { trade: NewTrade; importKey: string; source: Source; rolledFromKey?: string }[],
): Promise<void> {
  for (let i = 0; i < items.length; i += INSERT_PAGE) {
    await db
      .insertInto("trades")
      .values(
        items.slice(i, i + INSERT_PAGE).map(({ trade, importKey, source }) => ({
          user_id: userId,
          kind: trade.kind,
          ticker: trade.ticker,
          option_type: trade.option_type ?? null,
          strike: trade.strike ?? null,
          expiry: trade.expiry ?? null,
          quantity: trade.quantity,
          price: trade.price,
          fees: trade.fees,
          traded_at: trade.traded_at,
          rolled_from: null,
          ...(trade.portfolio ? { portfolio: trade.portfolio } : {}),
          strategy: trade.strategy ?? null,
          notes: trade.notes ?? null,
          confidence: trade.confidence ?? null,
          source,
          import_key: importKey,
        })),
      )
      .execute();
    await nextTurn();
  }
  // A roll's sell-to-open points at its buy-to-close, stored above (rolls are few: one statement each).
  for (const { importKey, rolledFromKey } of items) {
    if (!rolledFromKey) continue;
    await sql`
      UPDATE trades SET rolled_from = f.id FROM trades f
      WHERE trades.user_id = ${userId} AND trades.import_key = ${importKey}
        AND f.user_id = ${userId} AND f.import_key = ${rolledFromKey}
    `.execute(db as Db);
  }
}

/**
 * Takes the user's journal lock for the rest of the transaction, so two writes checked against the
 * same open positions (two tabs, a replayed outbox) run one after the other.
 */
export async function lockJournal(tx: Db, userId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${JOURNAL_LOCK}, ${userId})`.execute(tx);
}
const JOURNAL_LOCK = 1_700_017;

/** What the wheel's arithmetic needs of a stored trade or of one about to be stored. */
export function wheelTrade(
  trade: Pick<Trade, "kind" | "ticker" | "quantity" | "price" | "fees" | "traded_at"> & {
    id: number;
    option_type?: Trade["option_type"] | undefined;
    strike?: number | null | undefined;
    expiry?: string | null | undefined;
    rolled_from?: number | null | undefined;
  },
): WheelTrade {
  return {
    id: trade.id,
    kind: trade.kind,
    ticker: trade.ticker,
    optionType: trade.option_type ?? null,
    strike: trade.strike ?? null,
    expiry: trade.expiry ?? null,
    quantity: trade.quantity,
    price: trade.price,
    fees: trade.fees,
    tradedAt: Date.parse(trade.traded_at),
    rolledFrom: trade.rolled_from ?? null,
  };
}

/**
 * What the user's journal looks like now, cheaply: trades are only added (ids grow) or deleted, so
 * an equal count and highest id mean nothing changed in between.
 */
export async function journalMark(db: Executor, userId: number): Promise<string> {
  const row = await db
    .selectFrom("trades")
    .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.max("id").as("last")])
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return `${Number(row.count)}:${row.last ?? 0}`;
}
