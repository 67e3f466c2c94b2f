import * as calls from "#contract/calls.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { isAdmin } from "#provider/auth/callers.ts";
import { forbidden, notFound } from "#provider/http/errors.ts";
import { activeRecommendations, recommendationById, topLine, topLinePage } from "#provider/recommend/store.ts";
import { generateRecommendations } from "#provider/recommend/generate.ts";
import { recommendContext } from "#provider/recommend/context.ts";
import { readerFilters, saveFilters, savedFilters } from "#provider/recommend/filters.ts";
import { createCountCache } from "#provider/recommend/count-cache.ts";

import { storedStock } from "#provider/store/stock-for-ticker.ts";
import { flaggedForRecommendations } from "#provider/store/user-stocks.ts";

export const NOT_AUTHORIZED_TO_GENERATE = "Not authorized to generate recommendations";

/**
 * docs/product.md#calls-recommendations. Any signed-in user reads any ticker's set (it is market data, not
 * theirs); which puts they see, in what order and with what figures follows their own levels (else
 * the UIP row's, else none) and their own filters (ADR 0022); generating is for users who flagged the ticker in their watchlist, and for admins.
 */
export function recommendationRoutes(
  router: Router,
  context: ProviderContext,
  /** Top-line counts remembered (ADR 0086); 0 counts every view afresh. */
  options: { countCacheEntries?: number | undefined } = {},
): void {
  const { db } = context;
  const entries = options.countCacheEntries ?? 50_000;
  const counts = entries > 0 ? createCountCache(entries) : undefined;

  router.on(calls.tradeRecommendations, async ({ caller, params, query }) => {
    const { all: _all, ...filterQuery } = query ?? {};
    const [stock, filters] = await Promise.all([
      storedStock(db, params.symbol),
      readerFilters(db, caller.id, filterQuery),
    ]);
    if (!stock) throw notFound();
    return activeRecommendations(db, stock.id, caller.id, filters, { all: query?.all === "1" });
  });

  router.on(calls.tradeRecommendation, async ({ caller, params }) => {
    const recommendation = await recommendationById(db, params.id, caller.id, await savedFilters(db, caller.id));
    if (!recommendation) throw notFound();
    return recommendation;
  });

  router.on(calls.topLineRecommendations, async ({ caller, query }) =>
    topLine(db, caller.id, await readerFilters(db, caller.id, query), counts),
  );

  // A page of it, for /insights (ADR 0102): the work follows the cards shown, not every flagged stock.
  router.on(calls.topLineRecommendationsPage, async ({ caller, query }) => {
    const { limit, offset, q, ticker, ...filterQuery } = query ?? {};
    const filters = await readerFilters(db, caller.id, filterQuery);
    return topLinePage(db, caller.id, filters, { limit, offset, q, ticker }, counts);
  });

  router.on(calls.traderFilters, async ({ caller }) => savedFilters(db, caller.id));

  router.on(calls.saveTraderFilters, async ({ caller, body }) => saveFilters(db, caller.id, body));

  router.on(calls.generateRecommendations, async ({ caller, params }) => {
    const stock = await storedStock(db, params.ticker);
    if (!stock) throw notFound();
    const admin = isAdmin(caller);
    if (!admin) {
      const flagged = await flaggedForRecommendations(db, caller.id, stock.id);
      if (!flagged) throw forbidden(NOT_AUTHORIZED_TO_GENERATE);
    }
    // A generation reads a whole option chain: counted per trader, admins too (README "Security and limits").
    await context.limiter.hit(context.work.generate, String(caller.id));
    const result = await generateRecommendations(recommendContext(context), params.ticker, {
      callerId: caller.id,
      trigger: `${admin ? "admin" : "user"}:${caller.id}`,
    });
    // What the caller will see of the new pool, with their own levels and filters.
    const seen = await activeRecommendations(db, stock.id, caller.id, await savedFilters(db, caller.id));
    const n = seen.filter((r) => !r.nearest_above_conservative).length;
    return {
      message:
        n > 0
          ? `Generated ${n} ${n === 1 ? "recommendation" : "recommendations"} for ${result.ticker}`
          : `No put of ${result.ticker} passed your filters; its previous recommendations were retired`,
    };
  });
}
