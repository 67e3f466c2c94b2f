import * as calls from "../../contract/calls.ts";
import type { Router } from "../http/router.ts";
import type { ProviderContext } from "../context.ts";
import { isAdmin } from "../auth/callers.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { activeRecommendations, recommendationById, topLine } from "../recommend/store.ts";
import { generateRecommendations } from "../recommend/generate.ts";
import { recommendContext } from "../recommend/context.ts";

export const NOT_AUTHORIZED_TO_GENERATE = "Not authorized to generate recommendations";

/**
 * SPEC.md §7 Recommendations. Any signed-in user reads any ticker's set (it is market data, not
 * theirs), each row's buy_level and below_conservative_iv against the reader's own levels (else the
 * UIP row's, else none); generating is for users who flagged the ticker in their watchlist, and for admins.
 */
export function recommendationRoutes(router: Router, context: ProviderContext): void {
  const { db } = context;

  router.on(calls.tradeRecommendations, async ({ caller, params }) => {
    const stock = await db.selectFrom("stocks").select("id").where("ticker", "=", params.symbol).executeTakeFirst();
    if (!stock) throw notFound();
    return activeRecommendations(db, stock.id, caller.id);
  });

  router.on(calls.tradeRecommendation, async ({ caller, params }) => {
    const recommendation = await recommendationById(db, params.id, caller.id);
    if (!recommendation) throw notFound();
    return recommendation;
  });

  router.on(calls.topLineRecommendations, async ({ caller }) => topLine(db, caller.id));

  router.on(calls.generateRecommendations, async ({ caller, params }) => {
    const stock = await db.selectFrom("stocks").select("id").where("ticker", "=", params.ticker).executeTakeFirst();
    if (!stock) throw notFound();
    const admin = isAdmin(caller);
    if (!admin) {
      const flagged = await db
        .selectFrom("user_stocks")
        .select("id")
        .where("user_id", "=", caller.id)
        .where("stock_id", "=", stock.id)
        .where("active", "=", 1)
        .where("generate_recommendation", "=", true)
        .executeTakeFirst();
      if (!flagged) throw forbidden(NOT_AUTHORIZED_TO_GENERATE);
    }
    const result = await generateRecommendations(recommendContext(context), params.ticker, {
      callerId: caller.id,
      trigger: `${admin ? "admin" : "user"}:${caller.id}`,
    });
    const n = result.recommendations.length;
    return {
      message:
        n > 0
          ? `Generated ${n} ${n === 1 ? "recommendation" : "recommendations"} for ${result.ticker}`
          : `No put of ${result.ticker} passed the filters; its previous recommendations were retired`,
    };
  });
}
