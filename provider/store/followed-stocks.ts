/**
 * Which stocks the provider works for, as conditions on a query over `stocks as s`: the jobs, the
 * back-test and the landing figures each ask one of these, so the rule is spelled once.
 */
import type { ExpressionBuilder } from "kysely";
import type { Database } from "#provider/db/schema.ts";

type OverStocks = ExpressionBuilder<Database & { s: Database["stocks"] }, "s">;

/** On an active watchlist row or an active row of the UIP list: its price is kept fresh. */
export function isFollowed(eb: OverStocks) {
  return eb.or([
    eb.exists(
      eb
        .selectFrom("user_stocks as us")
        .select("us.id")
        .whereRef("us.stock_id", "=", "s.id")
        .where("us.active", "=", 1),
    ),
    eb.exists(
      eb.selectFrom("uip_stocks as u").select("u.id").whereRef("u.stock_id", "=", "s.id").where("u.active", "=", 1),
    ),
  ]);
}

/** Flagged for recommendations by some user's active watchlist row (generate_recommendation). */
export function isFlagged(eb: OverStocks) {
  return eb.exists(
    eb
      .selectFrom("user_stocks as us")
      .select("us.id")
      .whereRef("us.stock_id", "=", "s.id")
      .where("us.active", "=", 1)
      .where("us.generate_recommendation", "=", true),
  );
}
