import type { UserStock } from "#contract/entities.ts";
import type { Db } from "#provider/db/client.ts";
import { LIST_ROW_COLUMNS, listRowOf } from "./stock-lists.ts";
import { listRowsInOrder } from "./list-rows-in-order.ts";

/**
 * The watchlist's own queries (docs/product.md#entities-user-stock); what it shares with the UIP
 * list is in stock-lists.ts. The route decides who may reach a row.
 */

/** Reads watchlist rows (a user's, or one by id) joined with their stock, ascending sort_order. */
export async function userStockRows(db: Db, where: { userId?: number; id?: number }): Promise<UserStock[]> {
  let query = db
    .selectFrom("user_stocks as l")
    .innerJoin("stocks as s", "s.id", "l.stock_id")
    .select([...LIST_ROW_COLUMNS, "l.generate_recommendation"]);
  if (where.userId !== undefined) query = query.where("l.user_id", "=", where.userId);
  if (where.id !== undefined) query = query.where("l.id", "=", where.id);
  const rows = await listRowsInOrder(db, query);
  return rows.map((r) => ({ ...listRowOf(r), generate_recommendation: r.generate_recommendation }));
}

/** The owner of a watchlist row, or undefined when there is no such row. */
export async function userStockOwner(db: Db, id: number): Promise<number | undefined> {
  const owner = await db.selectFrom("user_stocks").select("user_id").where("id", "=", id).executeTakeFirst();
  return owner?.user_id;
}

/** The row's switch for automatic recommendations (docs/product.md#entities-user-stock). */
export async function setGenerateRecommendation(db: Db, id: number, on: UserStock["generate_recommendation"]) {
  await db.updateTable("user_stocks").set({ generate_recommendation: on }).where("id", "=", id).execute();
}

export async function deleteUserStock(db: Db, id: number): Promise<void> {
  await db.deleteFrom("user_stocks").where("id", "=", id).execute();
}

/** Whether the user's watchlist has this stock active with automatic recommendations on. */
export async function flaggedForRecommendations(db: Db, userId: number, stockId: number): Promise<boolean> {
  const flagged = await db
    .selectFrom("user_stocks")
    .select("id")
    .where("user_id", "=", userId)
    .where("stock_id", "=", stockId)
    .where("active", "=", 1)
    .where("generate_recommendation", "=", true)
    .executeTakeFirst();
  return flagged !== undefined;
}
