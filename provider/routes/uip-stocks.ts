import * as calls from "../../contract/calls.ts";
import { MarketSource, type Category, type CategoryIcon, type UipStock } from "../../contract/entities.ts";
import type { Router, Caller } from "../http/router.ts";
import type { ProviderContext } from "../context.ts";
import type { Db } from "../db/client.ts";
import { can } from "../auth/callers.ts";
import { conflict, forbidden, notFound, unprocessable } from "../http/errors.ts";
import { stockForTicker } from "./user-stocks.ts";

/**
 * The shared UIP list (docs/product.md#screens-uip-list, #entities-category, #roles-403, #calls-stocks): every signed-in user reads it and its categories;
 * changing it takes the UIP_STOCK permission of each call (403 otherwise, checked before anything
 * is looked up so a caller without it learns nothing about ids). The bell is each user's own
 * subscription to price alerts (provider/push/alerts.ts sends them).
 */

/** The text of docs/product.md#roles-403 for edit; the others say the same of their action. */
export const NOT_AUTHORIZED_EDIT = "Not authorized to edit UIP stock";
export const NOT_AUTHORIZED_CREATE = "Not authorized to add UIP stock";
export const NOT_AUTHORIZED_REORDER = "Not authorized to reorder UIP stocks";
/** The text of docs/product.md#errors-session for a delete without the permission. */
export const NOT_AUTHORIZED_DELETE = "You do not have permission to delete this stock.";
export const UIP_STOCK_NOT_FOUND = "UIP stock not found";
const UNIQUE_VIOLATION = "23505";

/** The UIP rows joined with their stock and category, ascending sort_order; `price_alert` is the caller's. */
export async function uipStockRows(db: Db, callerId: number, where: { id?: number } = {}): Promise<UipStock[]> {
  let query = db
    .selectFrom("uip_stocks as u")
    .innerJoin("stocks as s", "s.id", "u.stock_id")
    .innerJoin("categories as c", "c.id", "u.category_id")
    .leftJoin("uip_price_alerts as a", (join) =>
      join.onRef("a.uip_stock_id", "=", "u.id").on("a.user_id", "=", callerId),
    )
    .select([
      "u.id",
      "u.sort_order",
      "u.active",
      "u.category_id",
      "u.base_iv",
      "u.conservative_iv",
      "u.average_iv",
      "u.buy_level_one",
      "u.buy_level_two",
      "u.buy_level_three",
      "u.buy_level_four",
      "s.id as stock_id",
      "s.ticker",
      "s.name",
      "s.current_price",
      "s.updated_at",
      "s.price_source",
      "c.name as category_name",
      "c.icon as category_icon",
      "a.user_id as alert_user",
    ])
    .orderBy("u.sort_order")
    .orderBy("u.id");
  if (where.id !== undefined) query = query.where("u.id", "=", where.id);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    sort_order: r.sort_order,
    active: r.active === 1 ? 1 : 0,
    category_id: r.category_id,
    category: { id: r.category_id, name: r.category_name, icon: r.category_icon as CategoryIcon },
    base_iv: r.base_iv,
    conservative_iv: r.conservative_iv,
    average_iv: r.average_iv,
    buy_level_one: r.buy_level_one,
    buy_level_two: r.buy_level_two,
    buy_level_three: r.buy_level_three,
    buy_level_four: r.buy_level_four,
    price_alert: r.alert_user !== null,
    stock: {
      id: r.stock_id,
      ticker: r.ticker,
      name: r.name,
      current_price: r.current_price,
      updated_at: r.updated_at ? new Date(r.updated_at).toISOString() : null,
      price_source: MarketSource.safeParse(r.price_source).data ?? null,
    },
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
    let id: number;
    try {
      id = await db.transaction().execute(async (tx) => {
        const last = await tx
          .selectFrom("uip_stocks")
          .select((eb) => eb.fn.max("sort_order").as("max"))
          .executeTakeFirst();
        const row = await tx
          .insertInto("uip_stocks")
          .values({
            stock_id: stock.id,
            category_id: body.category_id,
            // New stocks go to the end of the list.
            sort_order: last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1,
            base_iv: body.base_iv,
            conservative_iv: body.conservative_iv,
            buy_level_one: body.buy_level_one,
            buy_level_two: body.buy_level_two,
            buy_level_three: body.buy_level_three,
            buy_level_four: body.buy_level_four,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        return row.id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`${stock.ticker} is already in the UIP list`);
      throw error;
    }
    return rowOrNotFound(db, caller, id);
  });

  router.on(calls.updateUipStock, async ({ caller, params, body }) => {
    if (!can(caller, "UIP_STOCK", "UPDATE")) throw forbidden(NOT_AUTHORIZED_EDIT);
    await rowOrNotFound(db, caller, params.id);
    await requireCategory(db, body.category_id);
    // average_iv is computed by the database from base and conservative IV; a sent one is ignored.
    await db
      .updateTable("uip_stocks")
      .set({
        category_id: body.category_id,
        base_iv: body.base_iv,
        conservative_iv: body.conservative_iv,
        buy_level_one: body.buy_level_one,
        buy_level_two: body.buy_level_two,
        buy_level_three: body.buy_level_three,
        buy_level_four: body.buy_level_four,
        ...(body.sort_order === undefined ? {} : { sort_order: body.sort_order }),
      })
      .where("id", "=", params.id)
      .execute();
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
    const ids = body.map((item) => item.id);
    if (new Set(ids).size !== ids.length) throw unprocessable("body: each stock may appear only once in the order");
    await db.transaction().execute(async (tx) => {
      const found =
        ids.length === 0 ? [] : await tx.selectFrom("uip_stocks").select("id").where("id", "in", ids).execute();
      // Every id must be a UIP row; otherwise nothing is changed.
      if (found.length !== ids.length) throw notFound(UIP_STOCK_NOT_FOUND);
      for (const item of body) {
        await tx.updateTable("uip_stocks").set({ sort_order: item.sort_order }).where("id", "=", item.id).execute();
      }
    });
    return { message: "Stocks reordered" };
  });

  router.on(calls.setUipPriceAlert, async ({ caller, params, body }) => {
    // Anyone who sees the list may subscribe themselves; it changes nothing shared.
    await rowOrNotFound(db, caller, params.id);
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
    return { price_alert: body.enabled };
  });
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === UNIQUE_VIOLATION;
}
