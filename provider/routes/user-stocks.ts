import * as calls from "../../contract/calls.ts";
import { MarketSource, type UserStock } from "../../contract/entities.ts";
import type { Router, Caller } from "../http/router.ts";
import type { ProviderContext } from "../context.ts";
import type { Db } from "../db/client.ts";
import type { MarketData } from "../market/port.ts";
import { MarketDataError } from "../market/port.ts";
import { can, isAdmin, requireSelfOrAdmin } from "../auth/callers.ts";
import { conflict, forbidden, HttpError, notFound, unprocessable } from "../http/errors.ts";

/** The same answer for a row that does not exist and one that belongs to someone else. */
export const USER_STOCK_NOT_FOUND = "User stock not found";
export const NO_DELETE_PERMISSION = "You do not have permission to delete this stock.";
const UNIQUE_VIOLATION = "23505";

/** Reads a user's watchlist rows, joined with their stock, ascending sort_order. */
export async function userStockRows(db: Db, where: { userId?: number; id?: number }): Promise<UserStock[]> {
  let query = db
    .selectFrom("user_stocks as us")
    .innerJoin("stocks as s", "s.id", "us.stock_id")
    .select([
      "us.id",
      "us.sort_order",
      "us.active",
      "us.generate_recommendation",
      "us.base_iv",
      "us.conservative_iv",
      "us.average_iv",
      "us.buy_level_one",
      "us.buy_level_two",
      "us.buy_level_three",
      "us.buy_level_four",
      "s.id as stock_id",
      "s.ticker",
      "s.name",
      "s.current_price",
      "s.updated_at",
      "s.price_source",
    ])
    .orderBy("us.sort_order")
    .orderBy("us.id");
  if (where.userId !== undefined) query = query.where("us.user_id", "=", where.userId);
  if (where.id !== undefined) query = query.where("us.id", "=", where.id);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    sort_order: r.sort_order,
    active: r.active === 1 ? 1 : 0,
    generate_recommendation: r.generate_recommendation,
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
  }));
}

/**
 * The row with this id when the caller may reach it (their own, or anyone's for an admin).
 * Someone else's row answers 404 like a missing one, so ids cannot be probed.
 */
async function reachableRow(db: Db, caller: Caller, id: number): Promise<UserStock & { user_id: number }> {
  const owner = await db.selectFrom("user_stocks").select("user_id").where("id", "=", id).executeTakeFirst();
  if (!owner || (owner.user_id !== caller.id && !isAdmin(caller))) throw notFound(USER_STOCK_NOT_FOUND);
  const [row] = await userStockRows(db, { id });
  if (!row) throw notFound(USER_STOCK_NOT_FOUND);
  return { ...row, user_id: owner.user_id };
}

/**
 * The shared `stocks` row of a ticker; created from market data (name, current price) when missing.
 * A ticker the market does not know is refused with 422.
 */
export async function stockForTicker(
  db: Db,
  market: MarketData,
  ticker: string,
  fallbackName: string,
): Promise<{ id: number; ticker: string }> {
  const existing = await db
    .selectFrom("stocks")
    .select(["id", "ticker"])
    .where("ticker", "=", ticker)
    .executeTakeFirst();
  if (existing) return existing;
  let quote;
  let name: string | undefined;
  try {
    [quote, name] = await Promise.all([market.quote(ticker), market.companyName(ticker)]);
  } catch (error) {
    if (error instanceof MarketDataError && error.status === 404) throw unprocessable(unknownTickerDetail(ticker));
    throw error;
  }
  await db
    .insertInto("stocks")
    .values({
      ticker,
      name: name || fallbackName.trim() || ticker,
      current_price: quote.price,
      updated_at: quote.asOf,
      price_source: quote.source,
    })
    // Two people adding a new ticker at once share one row.
    .onConflict((oc) => oc.column("ticker").doNothing())
    .execute();
  return db.selectFrom("stocks").select(["id", "ticker"]).where("ticker", "=", ticker).executeTakeFirstOrThrow();
}

export const unknownTickerDetail = (ticker: string) =>
  `Unknown ticker '${ticker}': no market data was found for it. Check the symbol and try again.`;

export function userStockRoutes(router: Router, { db, market }: ProviderContext): void {
  router.on(calls.listUserStocks, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    return userStockRows(db, { userId: params.userId });
  });

  router.on(calls.createUserStock, async ({ caller, params, body }) => {
    requireSelfOrAdmin(caller, params.userId);
    const user = await db.selectFrom("users").select("id").where("id", "=", params.userId).executeTakeFirst();
    if (!user) throw notFound("User not found");
    const stock = await stockForTicker(db, market, body.stock.ticker, body.stock.name);
    let id: number;
    try {
      id = await db.transaction().execute(async (tx) => {
        const last = await tx
          .selectFrom("user_stocks")
          .select((eb) => eb.fn.max("sort_order").as("max"))
          .where("user_id", "=", params.userId)
          .executeTakeFirst();
        const row = await tx
          .insertInto("user_stocks")
          .values({
            user_id: params.userId,
            stock_id: stock.id,
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
      if (isUniqueViolation(error)) throw conflict(alreadyListed(stock.ticker));
      throw error;
    }
    const [row] = await userStockRows(db, { id });
    return row!;
  });

  router.on(calls.updateUserStock, async ({ caller, params, body }) => {
    await reachableRow(db, caller, params.id);
    if ("generate_recommendation" in body) {
      await db
        .updateTable("user_stocks")
        .set({ generate_recommendation: body.generate_recommendation })
        .where("id", "=", params.id)
        .execute();
    } else {
      // average_iv is computed by the database from base and conservative IV; a sent one is ignored.
      await db
        .updateTable("user_stocks")
        .set({
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
    }
    const [row] = await userStockRows(db, { id: params.id });
    return row!;
  });

  router.on(calls.deleteUserStock, async ({ caller, params }) => {
    const row = await reachableRow(db, caller, params.id);
    if (!can(caller, "USER_STOCK", "DELETE")) throw forbidden(NO_DELETE_PERMISSION);
    await db.deleteFrom("user_stocks").where("id", "=", params.id).execute();
    return { message: `${row.stock.ticker} deleted from watchlist` };
  });

  router.on(calls.reorderUserStocks, async ({ caller, params, body }) => {
    requireSelfOrAdmin(caller, params.userId);
    const ids = body.map((item) => item.id);
    if (new Set(ids).size !== ids.length) throw unprocessable("body: each stock may appear only once in the order");
    await db.transaction().execute(async (tx) => {
      const owned =
        ids.length === 0
          ? []
          : await tx
              .selectFrom("user_stocks")
              .select("id")
              .where("user_id", "=", params.userId)
              .where("id", "in", ids)
              .execute();
      // Every id must be one of this user's rows; otherwise nothing is changed.
      if (owned.length !== ids.length) throw notFound(USER_STOCK_NOT_FOUND);
      for (const item of body) {
        await tx.updateTable("user_stocks").set({ sort_order: item.sort_order }).where("id", "=", item.id).execute();
      }
    });
    return { message: "Stocks reordered" };
  });

  router.on(calls.companyName, async ({ query }) => {
    let name: string | undefined;
    try {
      name = await market.companyName(query.ticker);
    } catch (error) {
      // The vendor is down: a stock we already know still has its stored name.
      if (!(error instanceof HttpError) || error.status === 404) throw error;
      const stored = await db.selectFrom("stocks").select("name").where("ticker", "=", query.ticker).executeTakeFirst();
      if (!stored) throw error;
      name = stored.name;
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

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === UNIQUE_VIOLATION;
}
