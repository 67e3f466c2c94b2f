import * as calls from "#contract/calls.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { recommendationFacts, stockFacts } from "#provider/ai/facts.ts";
import { streamText } from "#provider/ai/stream.ts";

/**
 * docs/product.md#calls-recommendations: POST /api/gen-ai-stock-analysis and POST /api/summarize-trade-recommendation, both
 * answering streamed `text/plain`. The facts are gathered first (an unknown ticker is 404), then
 * the configured explainer writes from them piece by piece.
 */
export function aiRoutes(router: Router, context: ProviderContext): void {
  // Each text costs a model call: counted per trader before any work (README "Security and limits").
  router.on(calls.stockAnalysis, async ({ caller, body, request }) => {
    await context.limiter.hit(context.work.aiText, String(caller.id));
    const facts = await stockFacts(context, body.ticker, caller.id);
    return streamText((signal) => context.explainer.stockAnalysis(facts, signal), request.signal);
  });

  router.on(calls.summarizeRecommendation, async ({ caller, body, request }) => {
    await context.limiter.hit(context.work.aiText, String(caller.id));
    const facts = await recommendationFacts(context, body, caller.id, context.now());
    return streamText((signal) => context.explainer.recommendationSummary(facts, signal), request.signal);
  });
}
