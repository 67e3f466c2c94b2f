import type { ProviderContext } from "#provider/context.ts";
import { notifyUsers, type NotifyResult } from "./notify.ts";

/**
 * The two alerts of the product, for the market-data and recommendation jobs to call:
 * a price falling to a buy level, and a fresh set of recommendations.
 */

const LEVELS = [
  ["buy_level_one", "1st"],
  ["buy_level_two", "2nd"],
  ["buy_level_three", "3rd"],
  ["buy_level_four", "4th"],
] as const;

type Levels = Record<(typeof LEVELS)[number][0], number>;

const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * The deepest buy level the price fell to (from above the level to at or below it) in this move,
 * or null. A put seller wants to know when a stock reaches the price they would own it at; a level
 * of 0 means "not set".
 */
export function crossedLevel(levels: Levels, previous: number, price: number): { name: string; value: number } | null {
  let crossed: { name: string; value: number } | null = null;
  for (const [column, name] of LEVELS) {
    const value = levels[column];
    if (value > 0 && previous > value && price <= value && (!crossed || value < crossed.value))
      crossed = { name, value };
  }
  return crossed;
}

export interface PriceMove {
  stockId: number;
  /** The last stored price before this update. */
  previousPrice: number;
  price: number;
}

/**
 * Notifies the users whose watchlist levels, or whose subscribed UIP stock's levels, the move
 * crossed. Call it after storing a new price, with the price it replaced.
 */
export async function notifyPriceCrossings(
  context: Pick<ProviderContext, "db" | "push">,
  move: PriceMove,
): Promise<NotifyResult[]> {
  const { db } = context;
  if (!(move.price < move.previousPrice)) return [];
  const stock = await db.selectFrom("stocks").select(["ticker"]).where("id", "=", move.stockId).executeTakeFirst();
  if (!stock) return [];
  const results: NotifyResult[] = [];
  const price = money.format(move.price);

  const watchlist = await db
    .selectFrom("user_stocks")
    .select(["user_id", "buy_level_one", "buy_level_two", "buy_level_three", "buy_level_four"])
    .where("stock_id", "=", move.stockId)
    .where("active", "=", 1)
    .execute();
  for (const row of watchlist) {
    const level = crossedLevel(row, move.previousPrice, move.price);
    if (!level) continue;
    results.push(
      await notifyUsers(context, [row.user_id], {
        type: "alert",
        title: `${stock.ticker} reached your ${level.name} buy level`,
        body: `${stock.ticker} is at ${price}, at or below your ${level.name} buy level of ${whole.format(level.value)}.`,
        url: "/user-stocks",
        actionRequired: true,
      }),
    );
  }

  const uip = await db
    .selectFrom("uip_stocks")
    .select(["id", "buy_level_one", "buy_level_two", "buy_level_three", "buy_level_four"])
    .where("stock_id", "=", move.stockId)
    .where("active", "=", 1)
    .executeTakeFirst();
  const uipLevel = uip ? crossedLevel(uip, move.previousPrice, move.price) : null;
  if (uip && uipLevel) {
    const subscribers = await db
      .selectFrom("uip_price_alerts")
      .select("user_id")
      .where("uip_stock_id", "=", uip.id)
      .execute();
    if (subscribers.length) {
      results.push(
        await notifyUsers(
          context,
          subscribers.map((s) => s.user_id),
          {
            type: "alert",
            title: `${stock.ticker} reached the UIP ${uipLevel.name} buy level`,
            body: `${stock.ticker} is at ${price}, at or below the UIP ${uipLevel.name} buy level of ${whole.format(uipLevel.value)}.`,
            url: "/uip-stocks",
            actionRequired: true,
          },
        ),
      );
    }
  }
  return results;
}

/**
 * Tells the users who flagged a stock for recommendations (generate_recommendation) that a new
 * set is ready. Call it after storing a generation run that produced `count` recommendations.
 */
export async function notifyNewRecommendations(
  context: Pick<ProviderContext, "db" | "push">,
  { stockId, count }: { stockId: number; count: number },
): Promise<NotifyResult | null> {
  const { db } = context;
  if (count <= 0) return null;
  const stock = await db.selectFrom("stocks").select(["ticker"]).where("id", "=", stockId).executeTakeFirst();
  if (!stock) return null;
  const users = await db
    .selectFrom("user_stocks")
    .select("user_id")
    .where("stock_id", "=", stockId)
    .where("generate_recommendation", "=", true)
    .execute();
  if (users.length === 0) return null;
  return notifyUsers(
    context,
    users.map((u) => u.user_id),
    {
      type: "trade",
      title: `New recommendations for ${stock.ticker}`,
      body: `${count} new sell-put ${count === 1 ? "idea" : "ideas"} for ${stock.ticker} are ready.`,
      url: "/insights",
    },
  );
}
