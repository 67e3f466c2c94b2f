import { sql } from "kysely";
import type { Db } from "./client.ts";
import type { Passwords } from "#provider/auth/password.ts";
import type { MarketData } from "#provider/market/port.ts";
import {
  DEMO_CAPITAL,
  DEMO_CATEGORIES,
  DEMO_TICKERS,
  DEMO_UIP,
  DEMO_USERS,
  DEMO_WATCHLIST,
  demoBuyLevels,
} from "./demo-data.ts";
import { generateMany } from "#provider/recommend/generate.ts";

const round2 = (v: number) => Math.round(v * 100) / 100;

/** Loads the demo data once: it does nothing when any user exists already. */
export async function seedDemo(db: Db, market: MarketData, passwords: Passwords): Promise<boolean> {
  // Quotes first, outside the transaction: the stored prices start where the market is now
  // (a vendor that cannot be reached leaves the demo's reference prices).
  const quotes = new Map(
    await Promise.all(
      DEMO_TICKERS.map(async (t) => [t.ticker, await market.quote(t.ticker).catch(() => undefined)] as const),
    ),
  );
  return db.transaction().execute(async (tx) => {
    // Two processes starting together must not both seed.
    await sql`select pg_advisory_xact_lock(4242001)`.execute(tx);
    const existing = await tx.selectFrom("users").select("id").limit(1).executeTakeFirst();
    if (existing) return false;

    const categories = await tx.insertInto("categories").values(DEMO_CATEGORIES).returning(["id", "name"]).execute();
    const categoryId = new Map(categories.map((c) => [c.name, c.id]));

    const now = new Date();
    const stocks = await tx
      .insertInto("stocks")
      .values(
        DEMO_TICKERS.map((t) => {
          const quote = quotes.get(t.ticker);
          return {
            ticker: t.ticker,
            name: t.name,
            current_price: quote?.price ?? t.price,
            updated_at: quote?.asOf ?? now,
            price_source: quote?.source ?? null,
          };
        }),
      )
      .returning(["id", "ticker", "current_price"])
      .execute();
    const stockBy = new Map(stocks.map((s) => [s.ticker, s]));
    const stockOf = (ticker: string) => {
      const stock = stockBy.get(ticker);
      if (!stock) throw new Error(`Demo data names ${ticker}, which is not a demo ticker`);
      return stock;
    };

    await tx
      .insertInto("uip_stocks")
      .values(
        DEMO_UIP.map((u, index) => {
          const stock = stockOf(u.ticker);
          const [one, two, three, four] = demoBuyLevels(stock.current_price);
          return {
            stock_id: stock.id,
            category_id: categoryId.get(u.category)!,
            sort_order: index,
            base_iv: round2(stock.current_price * u.base),
            conservative_iv: round2(stock.current_price * u.cons),
            buy_level_one: one,
            buy_level_two: two,
            buy_level_three: three,
            buy_level_four: four,
          };
        }),
      )
      .execute();

    const roles = await tx.selectFrom("roles").select(["id", "name"]).execute();
    const roleId = new Map(roles.map((r) => [r.name, r.id]));
    for (const demo of DEMO_USERS) {
      const user = await tx
        .insertInto("users")
        .values({
          username: demo.username,
          email: demo.email,
          first_name: demo.first_name,
          last_name: demo.last_name,
          password_hash: await passwords.hash(demo.password),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await tx
        .insertInto("user_roles")
        .values({ user_id: user.id, role_id: roleId.get(demo.role)! })
        .execute();
      await tx
        .insertInto("user_stocks")
        .values(
          DEMO_WATCHLIST.map((w, index) => {
            const stock = stockOf(w.ticker);
            const [one, two, three, four] = demoBuyLevels(stock.current_price);
            return {
              user_id: user.id,
              stock_id: stock.id,
              sort_order: index,
              generate_recommendation: w.recommend,
              base_iv: round2(stock.current_price * w.base),
              conservative_iv: round2(stock.current_price * w.cons),
              buy_level_one: one,
              buy_level_two: two,
              buy_level_three: three,
              buy_level_four: four,
            };
          }),
        )
        .execute();
      // The Plan screen has figures from the start (ADR 0081).
      if (demo.role === "trader") {
        await tx
          .insertInto("capital_settings")
          .values({ user_id: user.id, ...DEMO_CAPITAL })
          .execute();
      }
    }
    return true;
  });
}

/**
 * A first set of recommendations for the tickers the demo users flagged, so the demo does not open
 * on an empty /insights while automatic generation is off. Nobody is notified and nothing is
 * published: no one has seen anything yet. A ticker that fails (no market data) is left out.
 */
export async function seedDemoRecommendations(db: Db, market: MarketData): Promise<void> {
  const tickers = [...new Set(DEMO_WATCHLIST.filter((w) => w.recommend).map((w) => w.ticker))];
  for (const { ticker, error } of await generateMany({ db, market }, tickers, { trigger: "seed" })) {
    if (error) console.warn(`[seed] no demo recommendations for ${ticker}: ${error.message}`);
  }
}

/**
 * The demo's live prices: a new demo data folder starts with the admin switch auto_refresh_enabled
 * on, so prices move, alerts fire and live updates flow with default settings (ADR 0037). Without
 * demo data the switch stays off until an admin turns it on (a live vendor's limits are theirs to weigh).
 */
export async function switchOnLivePrices(db: Db): Promise<void> {
  await db.updateTable("backend_config").set({ value: "1" }).where("key", "=", "auto_refresh_enabled").execute();
}
