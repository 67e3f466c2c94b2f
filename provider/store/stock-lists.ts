/**
 * What the watchlist (user_stocks) and the shared UIP list (uip_stocks) do alike
 * (docs/product.md#screens-watchlist, #screens-uip-list): the row's levels and stock as the contract
 * shows them, adding at the end, editing the values, reordering. Each list's route keeps only what
 * is its own: who may reach a row, the UIP category and the watchlist's recommendation switch.
 */
import type { z } from "zod";
import type { IntrinsicValues } from "#contract/calls.ts";
import { MarketSource, type UserStock } from "#contract/entities.ts";
import type { Db } from "#provider/db/client.ts";
import type { ReferenceLevels } from "#provider/recommend/level-flags.ts";
import { conflict, notFound, unprocessable } from "#provider/http/errors.ts";
import { isUniqueViolation } from "./unique-violation.ts";

export type ListTable = "user_stocks" | "uip_stocks";

/** The values a trader types on the add and edit forms (average_iv is computed by the database). */
export type ListValues = z.output<typeof IntrinsicValues>;

/** The columns both lists read, the list's row aliased `l` and its stock `s`. */
export const LIST_ROW_COLUMNS = [
  "l.id",
  "l.sort_order",
  "l.active",
  "l.base_iv",
  "l.conservative_iv",
  "l.average_iv",
  "l.buy_level_one",
  "l.buy_level_two",
  "l.buy_level_three",
  "l.buy_level_four",
  "s.id as stock_id",
  "s.ticker",
  "s.name",
  "s.current_price",
  "s.updated_at",
  "s.price_source",
] as const;

type ListRowRead = ReferenceLevels & {
  id: number;
  sort_order: number;
  active: number;
  stock_id: number;
  ticker: string;
  name: string;
  current_price: number;
  updated_at: Date | string | null;
  price_source: string | null;
};

/** The part of a list row the two lists share, as the contract has it. */
export function listRowOf(r: ListRowRead): Omit<UserStock, "generate_recommendation"> {
  return {
    id: r.id,
    sort_order: r.sort_order,
    active: r.active === 1 ? 1 : 0,
    base_iv: r.base_iv,
    conservative_iv: r.conservative_iv,
    average_iv: r.average_iv,
    buy_level_one: r.buy_level_one,
    buy_level_two: r.buy_level_two,
    buy_level_three: r.buy_level_three,
    buy_level_four: r.buy_level_four,
    stock: {
      id: r.stock_id,
      ticker: r.ticker,
      name: r.name,
      current_price: r.current_price,
      updated_at: r.updated_at ? new Date(r.updated_at).toISOString() : null,
      price_source: MarketSource.safeParse(r.price_source).data ?? null,
    },
  };
}

const typedValues = (values: ListValues) => ({
  base_iv: values.base_iv,
  conservative_iv: values.conservative_iv,
  buy_level_one: values.buy_level_one,
  buy_level_two: values.buy_level_two,
  buy_level_three: values.buy_level_three,
  buy_level_four: values.buy_level_four,
});

/** A new row for one of the lists: its own columns besides the stock and the typed values. */
export type NewListRow =
  { table: "user_stocks"; own: { user_id: number } } | { table: "uip_stocks"; own: { category_id: number } };

/**
 * Adds a stock at the end of a list (a watchlist is per user, the UIP list is one) and returns the
 * new row's id; a stock already on that list is refused with 409 and `duplicate`.
 */
export async function appendToList(
  db: Db,
  row: NewListRow,
  stockId: number,
  values: ListValues,
  duplicate: string,
): Promise<number> {
  try {
    return await db.transaction().execute(async (tx) => {
      let last = tx.selectFrom(row.table).select((eb) => eb.fn.max("sort_order").as("max"));
      if (row.table === "user_stocks") last = last.where("user_id", "=", row.own.user_id);
      const { max } = (await last.executeTakeFirst()) ?? {};
      // New stocks go to the end of the list.
      const sort_order = max === null || max === undefined ? 0 : Number(max) + 1;
      const inserted = await tx
        .insertInto(row.table)
        .values({ ...row.own, stock_id: stockId, sort_order, ...typedValues(values) } as never)
        .returning("id")
        .executeTakeFirstOrThrow();
      return inserted.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(duplicate);
    throw error;
  }
}

/**
 * Stores the edited values of a row (and its place, when sent); `own` holds the list's other
 * columns. A sent average_iv is ignored: the database computes it from base and conservative IV.
 */
export async function saveListValues(
  db: Db,
  table: ListTable,
  id: number,
  values: ListValues & { sort_order?: number | undefined },
  own: { category_id?: number } = {},
): Promise<void> {
  await db
    .updateTable(table)
    .set({
      ...own,
      ...typedValues(values),
      ...(values.sort_order === undefined ? {} : { sort_order: values.sort_order }),
    })
    .where("id", "=", id)
    .execute();
}

/**
 * Gives rows their new places, all or nothing: each id once (422 otherwise), and every id a row of
 * this list (of this user's watchlist when `userId` is given), else 404 with `missing`.
 */
export async function reorderList(
  db: Db,
  table: ListTable,
  order: { id: number; sort_order: number }[],
  scope: { userId?: number; missing: string },
): Promise<void> {
  const ids = order.map((item) => item.id);
  if (new Set(ids).size !== ids.length) throw unprocessable("body: each stock may appear only once in the order");
  await db.transaction().execute(async (tx) => {
    const rows = tx.selectFrom(table).select("id").where("id", "in", ids);
    const query =
      scope.userId === undefined
        ? rows
        : tx.selectFrom("user_stocks").select("id").where("id", "in", ids).where("user_id", "=", scope.userId);
    const found = ids.length === 0 ? [] : await query.execute();
    if (found.length !== ids.length) throw notFound(scope.missing);
    for (const item of order) {
      await tx.updateTable(table).set({ sort_order: item.sort_order }).where("id", "=", item.id).execute();
    }
  });
}
