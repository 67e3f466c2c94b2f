import type { Category, CategoryIcon, UipStock } from "#contract/entities.ts";
import type { Db } from "#provider/db/client.ts";
import { LIST_ROW_COLUMNS, listRowOf } from "./stock-lists.ts";
import { listRowsInOrder } from "./list-rows-in-order.ts";

/**
 * The UIP list's own queries (docs/product.md#entities-uip-stock, #entities-category): its rows
 * with their category, the categories, and each user's price-alert subscription. What it shares
 * with the watchlist is in stock-lists.ts; the route checks the UIP_STOCK permissions.
 */

/** The UIP rows joined with their stock and category, ascending sort_order; `price_alert` is the caller's. */
export async function uipStockRows(db: Db, callerId: number, where: { id?: number } = {}): Promise<UipStock[]> {
  let query = db
    .selectFrom("uip_stocks as l")
    .innerJoin("stocks as s", "s.id", "l.stock_id")
    .innerJoin("categories as c", "c.id", "l.category_id")
    .leftJoin("uip_price_alerts as a", (join) =>
      join.onRef("a.uip_stock_id", "=", "l.id").on("a.user_id", "=", callerId),
    )
    .select([...LIST_ROW_COLUMNS, "l.category_id", "c.name as category_name", "c.icon as category_icon"])
    .select("a.user_id as alert_user");
  if (where.id !== undefined) query = query.where("l.id", "=", where.id);
  const rows = await listRowsInOrder(db, query);
  return rows.map((r) => ({
    ...listRowOf(r),
    category_id: r.category_id,
    category: { id: r.category_id, name: r.category_name, icon: r.category_icon as CategoryIcon },
    price_alert: r.alert_user !== null,
  }));
}

export async function categoryExists(db: Db, id: number): Promise<boolean> {
  const found = await db.selectFrom("categories").select("id").where("id", "=", id).executeTakeFirst();
  return found !== undefined;
}

export async function categories(db: Db): Promise<Category[]> {
  const rows = await db.selectFrom("categories").select(["id", "name", "icon"]).orderBy("id").execute();
  return rows.map((c) => ({ id: c.id, name: c.name, icon: c.icon as CategoryIcon }));
}

/** Deletes a UIP row; subscriptions to its alerts go with it (ON DELETE CASCADE). */
export async function deleteUipStock(db: Db, id: number): Promise<void> {
  await db.deleteFrom("uip_stocks").where("id", "=", id).execute();
}

/** Subscribes a user to a UIP row's price alerts, or ends the subscription; either is idempotent. */
export async function setUipPriceAlert(db: Db, userId: number, uipStockId: number, enabled: boolean): Promise<void> {
  if (enabled) {
    await db
      .insertInto("uip_price_alerts")
      .values({ user_id: userId, uip_stock_id: uipStockId })
      .onConflict((oc) => oc.columns(["user_id", "uip_stock_id"]).doNothing())
      .execute();
  } else {
    await db
      .deleteFrom("uip_price_alerts")
      .where("user_id", "=", userId)
      .where("uip_stock_id", "=", uipStockId)
      .execute();
  }
}
