import * as calls from "#contract/calls.ts";
import type { Category, CategoryIcon, UipStock } from "#contract/entities.ts";
import type { Router, Caller } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import type { Db } from "#provider/db/client.ts";
import { can } from "#provider/auth/callers.ts";
import { forbidden, notFound, unprocessable } from "#provider/http/errors.ts";
import { stockForTicker } from "#provider/store/stock-for-ticker.ts";
import { appendToList, LIST_ROW_COLUMNS, listRowOf, reorderList, saveListValues } from "#provider/store/stock-lists.ts";
import { listRowsInOrder } from "#provider/store/list-rows-in-order.ts";

/**
 * The UIP list, the shared curated list every user sees (docs/product.md#uip, #screens-uip-list, #entities-category, #roles-403, #calls-stocks): every signed-in user reads it and its categories;
 * changing it takes the UIP_STOCK permission of each call (403 otherwise, checked before anything
 * is looked up so a caller without it learns nothing about ids). The bell is each user's own
 * subscription to price alerts (provider/push/alerts.ts sends them).
 */

/** The text of docs/product.md#roles-403 for edit; the others say the same of their action. */
const NOT_AUTHORIZED_EDIT = "Not authorized to edit UIP stock";
const NOT_AUTHORIZED_CREATE = "Not authorized to add UIP stock";
const NOT_AUTHORIZED_REORDER = "Not authorized to reorder UIP stocks";
/** The text of docs/product.md#errors-session for a delete without the permission. */
const NOT_AUTHORIZED_DELETE = "You do not have permission to delete this stock.";
const UIP_STOCK_NOT_FOUND = "UIP stock not found";

/** The UIP rows joined with their stock and category, ascending sort_order; `price_alert` is the caller's. */
async function uipStockRows(db: Db, callerId: number, where: { id?: number } = {}): Promise<UipStock[]> {
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

async function rowOrNotFound(db: Db, caller: Caller, id: number): Promise<UipStock> {
  const [row] = await uipStockRows(db, caller.id, { id });
  if (!row) throw notFound(UIP_STOCK_NOT_FOUND);
  return row;
}

/** A category id the list can use; 422 names the field otherwise. */
async function requireCategory(db: Db, id: number): Promise<void> {
  const found = await db.selectFrom("categories").select("id").where("id", "=", id).executeTakeFirst();
  if (!found) throw unprocessable(`category_id: there is no category ${id}`);
}

export function uipStockRoutes(router: Router, { db, market }: ProviderContext): void {
  router.on(calls.listUipStocks, async ({ caller }) => uipStockRows(db, caller.id));

  router.on(calls.listCategories, async (): Promise<Category[]> => {
    const rows = await db.selectFrom("categories").select(["id", "name", "icon"]).orderBy("id").execute();
    return rows.map((c) => ({ id: c.id, name: c.name, icon: c.icon as CategoryIcon }));
  });

  router.on(calls.createUipStock, async ({ caller, body }) => {
    if (!can(caller, "UIP_STOCK", "CREATE")) throw forbidden(NOT_AUTHORIZED_CREATE);
    await requireCategory(db, body.category_id);
    const stock = await stockForTicker(db, market, body.stock.ticker, body.stock.name);
    const own = { category_id: body.category_id };
    const id = await appendToList(
      db,
      { table: "uip_stocks", own },
      stock.id,
      body,
      `${stock.ticker} is already in the UIP list`,
    );
    return rowOrNotFound(db, caller, id);
  });

  router.on(calls.updateUipStock, async ({ caller, params, body }) => {
    if (!can(caller, "UIP_STOCK", "UPDATE")) throw forbidden(NOT_AUTHORIZED_EDIT);
    await rowOrNotFound(db, caller, params.id);
    await requireCategory(db, body.category_id);
    await saveListValues(db, "uip_stocks", params.id, body, { category_id: body.category_id });
    return rowOrNotFound(db, caller, params.id);
  });

  router.on(calls.deleteUipStock, async ({ caller, params }) => {
    if (!can(caller, "UIP_STOCK", "DELETE")) throw forbidden(NOT_AUTHORIZED_DELETE);
    const row = await rowOrNotFound(db, caller, params.id);
    // Subscriptions to its alerts go with it (ON DELETE CASCADE).
    await db.deleteFrom("uip_stocks").where("id", "=", params.id).execute();
    return { message: `${row.stock.ticker} deleted from UIP stocks` };
  });

  router.on(calls.reorderUipStocks, async ({ caller, body }) => {
    if (!can(caller, "UIP_STOCK", "UPDATE")) throw forbidden(NOT_AUTHORIZED_REORDER);
    await reorderList(db, "uip_stocks", body, { missing: UIP_STOCK_NOT_FOUND });
    return { message: "Stocks reordered" };
  });

  router.on(calls.setUipPriceAlert, async ({ caller, params, body }) => {
    // Anyone who sees the list may subscribe themselves; it changes nothing shared.
    const row = await rowOrNotFound(db, caller, params.id);
    if (body.enabled) {
      await db
        .insertInto("uip_price_alerts")
        .values({ user_id: caller.id, uip_stock_id: params.id })
        .onConflict((oc) => oc.columns(["user_id", "uip_stock_id"]).doNothing())
        .execute();
    } else {
      await db
        .deleteFrom("uip_price_alerts")
        .where("user_id", "=", caller.id)
        .where("uip_stock_id", "=", params.id)
        .execute();
    }
    return { price_alert: body.enabled, ticker: row.stock.ticker };
  });
}
