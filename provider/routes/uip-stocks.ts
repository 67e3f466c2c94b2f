import * as calls from "#contract/calls.ts";
import type { Category, UipStock } from "#contract/entities.ts";
import type { Router, Caller } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import type { Db } from "#provider/db/client.ts";
import { can } from "#provider/auth/callers.ts";
import { forbidden, notFound, unprocessable } from "#provider/http/errors.ts";
import { stockForTicker } from "#provider/store/stock-for-ticker.ts";
import { appendToList, reorderList, saveListValues } from "#provider/store/stock-lists.ts";
import {
  categories,
  categoryExists,
  deleteUipStock,
  setUipPriceAlert,
  uipStockRows,
} from "#provider/store/uip-stocks.ts";

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

async function rowOrNotFound(db: Db, caller: Caller, id: number): Promise<UipStock> {
  const [row] = await uipStockRows(db, caller.id, { id });
  if (!row) throw notFound(UIP_STOCK_NOT_FOUND);
  return row;
}

/** A category id the list can use; 422 names the field otherwise. */
async function requireCategory(db: Db, id: number): Promise<void> {
  if (!(await categoryExists(db, id))) throw unprocessable(`category_id: there is no category ${id}`);
}

export function uipStockRoutes(router: Router, { db, market }: ProviderContext): void {
  router.on(calls.listUipStocks, async ({ caller }) => uipStockRows(db, caller.id));

  router.on(calls.listCategories, async (): Promise<Category[]> => categories(db));

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
    await deleteUipStock(db, params.id);
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
    await setUipPriceAlert(db, caller.id, params.id, body.enabled);
    return { price_alert: body.enabled, ticker: row.stock.ticker };
  });
}
