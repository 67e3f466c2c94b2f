/**
 * The covered-call screen's SQL (docs/decisions/0079): each trader's call filters (their saved row,
 * else the defaults; a view may override any of them in its query) and their base values of the
 * stocks they hold (their own watchlist row, else the UIP row).
 */
import type { Db } from "#provider/db/client.ts";
import { HttpError } from "#provider/http/errors.ts";
import { CallFilters, type CallFilterQuery } from "#contract/covered-calls.ts";
import { DEFAULT_CALL_FILTERS } from "#contract/call-filter-labels.ts";

const FIELDS = Object.keys(DEFAULT_CALL_FILTERS) as (keyof CallFilters)[];

export async function savedCallFilters(db: Db, userId: number): Promise<CallFilters> {
  const row = await db.selectFrom("call_filters").select(FIELDS).where("user_id", "=", userId).executeTakeFirst();
  return row ? { ...row } : { ...DEFAULT_CALL_FILTERS };
}

/** The saved call filters with the query's overrides; 422 with the first problem when they do not hold. */
export async function readerCallFilters(
  db: Db,
  userId: number,
  query: CallFilterQuery | undefined,
): Promise<CallFilters> {
  const saved = await savedCallFilters(db, userId);
  const overrides = Object.fromEntries(Object.entries(query ?? {}).filter(([, v]) => v !== undefined));
  if (Object.keys(overrides).length === 0) return saved;
  const checked = CallFilters.safeParse({ ...saved, ...overrides });
  // Each message names its field as the form does, so the screen can show it as it is.
  if (!checked.success) throw new HttpError(422, checked.error.issues[0]!.message);
  return checked.data;
}

export async function saveCallFilters(db: Db, userId: number, values: CallFilters): Promise<CallFilters> {
  const row = Object.fromEntries(FIELDS.map((f) => [f, values[f]])) as unknown as CallFilters;
  await db
    .insertInto("call_filters")
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...row, updated_at: new Date() }))
    .execute();
  return row;
}

/** The trader's base value per ticker: their active watchlist row's, else the UIP row's; 0 counts as unset. */
export async function baseValues(db: Db, userId: number, tickers: readonly string[]): Promise<Map<string, number>> {
  if (tickers.length === 0) return new Map();
  const rows = await db
    .selectFrom("stocks as s")
    .leftJoin("user_stocks as own", (join) =>
      join.onRef("own.stock_id", "=", "s.id").on("own.user_id", "=", userId).on("own.active", "=", 1),
    )
    .leftJoin("uip_stocks as uip", (join) => join.onRef("uip.stock_id", "=", "s.id").on("uip.active", "=", 1))
    .select(["s.ticker", "own.base_iv as own_base", "uip.base_iv as uip_base"])
    .where("s.ticker", "in", [...tickers])
    .execute();
  const values = new Map<string, number>();
  for (const row of rows) {
    const value = Number(row.own_base) > 0 ? Number(row.own_base) : Number(row.uip_base) > 0 ? Number(row.uip_base) : 0;
    if (value > 0) values.set(row.ticker, value);
  }
  return values;
}
