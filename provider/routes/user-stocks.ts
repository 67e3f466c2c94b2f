import * as calls from "#contract/calls.ts";
import type { UserStock } from "#contract/entities.ts";
import type { Router, Caller } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import type { Db } from "#provider/db/client.ts";
import { can, isAdmin, requireSelfOrAdmin } from "#provider/auth/callers.ts";
import { forbidden, HttpError, notFound } from "#provider/http/errors.ts";
import { stockForTicker, storedStockName } from "#provider/store/stock-for-ticker.ts";
import { appendToList, reorderList, saveListValues } from "#provider/store/stock-lists.ts";
import {
  deleteUserStock,
  setGenerateRecommendation,
  userStockOwner,
  userStockRows,
} from "#provider/store/user-stocks.ts";
import { userExists } from "#provider/store/users.ts";

/** The same answer for a row that does not exist and one that belongs to someone else. */
const USER_STOCK_NOT_FOUND = "User stock not found";
const NO_DELETE_PERMISSION = "You do not have permission to delete this stock.";

/**
 * The row with this id when the caller may reach it (their own, or anyone's for an admin).
 * Someone else's row answers 404 like a missing one, so ids cannot be probed.
 */
async function reachableRow(db: Db, caller: Caller, id: number): Promise<UserStock & { user_id: number }> {
  const owner = await userStockOwner(db, id);
  if (owner === undefined || (owner !== caller.id && !isAdmin(caller))) throw notFound(USER_STOCK_NOT_FOUND);
  const [row] = await userStockRows(db, { id });
  if (!row) throw notFound(USER_STOCK_NOT_FOUND);
  return { ...row, user_id: owner };
}

export function userStockRoutes(router: Router, { db, market }: ProviderContext): void {
  router.on(calls.listUserStocks, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    return userStockRows(db, { userId: params.userId });
  });

  router.on(calls.createUserStock, async ({ caller, params, body }) => {
    requireSelfOrAdmin(caller, params.userId);
    if (!(await userExists(db, params.userId))) throw notFound("User not found");
    const stock = await stockForTicker(db, market, body.stock.ticker, body.stock.name);
    const own = { user_id: params.userId };
    const id = await appendToList(db, { table: "user_stocks", own }, stock.id, body, alreadyListed(stock.ticker));
    const [row] = await userStockRows(db, { id });
    return row!;
  });

  router.on(calls.updateUserStock, async ({ caller, params, body }) => {
    await reachableRow(db, caller, params.id);
    if ("generate_recommendation" in body) {
      await setGenerateRecommendation(db, params.id, body.generate_recommendation);
    } else {
      await saveListValues(db, "user_stocks", params.id, body);
    }
    const [row] = await userStockRows(db, { id: params.id });
    return row!;
  });

  router.on(calls.deleteUserStock, async ({ caller, params }) => {
    const row = await reachableRow(db, caller, params.id);
    if (!can(caller, "USER_STOCK", "DELETE")) throw forbidden(NO_DELETE_PERMISSION);
    await deleteUserStock(db, params.id);
    return { message: `${row.stock.ticker} deleted from watchlist` };
  });

  router.on(calls.reorderUserStocks, async ({ caller, params, body }) => {
    requireSelfOrAdmin(caller, params.userId);
    await reorderList(db, "user_stocks", body, { userId: params.userId, missing: USER_STOCK_NOT_FOUND });
    return { message: "Stocks reordered" };
  });

  router.on(calls.companyName, async ({ query }) => {
    let name: string | undefined;
    try {
      name = await market.companyName(query.ticker);
    } catch (error) {
      // The vendor is down: a stock we already know still has its stored name.
      if (!(error instanceof HttpError) || error.status === 404) throw error;
      const stored = await storedStockName(db, query.ticker);
      if (stored === undefined) throw error;
      name = stored;
    }
    if (!name) throw notFound(`Unknown ticker: ${query.ticker}`);
    return { company_name: name };
  });

  router.on(calls.stockHistory, async ({ params, query }) => {
    // Public market data: any signed-in user may chart any ticker the market knows (404 otherwise).
    return market.dailyHistory(params.ticker, query.days);
  });
}

const alreadyListed = (ticker: string) => `${ticker} is already in your watchlist`;
