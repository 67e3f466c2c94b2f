/**
 * Each trader's recommendation filters (ADR 0022): their saved row, else the defaults; a view may
 * override any of them in its query (the /insights GET form), checked against the same limits.
 */
import type { Db } from "#provider/db/client.ts";
import { HttpError } from "#provider/http/errors.ts";
import { TraderFilters } from "#contract/trader-filters.ts";
import type { TraderFilterQuery } from "#contract/calls.ts";
import { DEFAULT_FILTERS, type TraderFilterValues } from "./selection.ts";

const FIELDS = Object.keys(DEFAULT_FILTERS) as (keyof TraderFilterValues)[];

export async function savedFilters(db: Db, userId: number): Promise<TraderFilterValues> {
  const row = await db.selectFrom("trader_filters").select(FIELDS).where("user_id", "=", userId).executeTakeFirst();
  return row ? { ...row } : { ...DEFAULT_FILTERS };
}

/** The saved filters with the query's overrides; 422 with the first problem when they do not hold. */
export async function readerFilters(
  db: Db,
  userId: number,
  query: TraderFilterQuery | undefined,
): Promise<TraderFilterValues> {
  const saved = await savedFilters(db, userId);
  const overrides = Object.fromEntries(Object.entries(query ?? {}).filter(([, v]) => v !== undefined));
  if (Object.keys(overrides).length === 0) return saved;
  const checked = TraderFilters.safeParse({ ...saved, ...overrides });
  if (!checked.success) {
    // Each message names its field as the form does, so the screen can show it as it is.
    throw new HttpError(422, checked.error.issues[0]!.message);
  }
  return checked.data;
}

export async function saveFilters(db: Db, userId: number, values: TraderFilterValues): Promise<TraderFilterValues> {
  const row = Object.fromEntries(FIELDS.map((f) => [f, values[f]])) as unknown as TraderFilterValues;
  await db
    .insertInto("trader_filters")
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...row, updated_at: new Date() }))
    .execute();
  return row;
}
