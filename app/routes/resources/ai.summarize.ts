import type { Route } from "./+types/ai.summarize";
import * as calls from "#contract/calls.ts";
import { jsonBody, streamAiFromProvider } from "./ai-stream.server.ts";

/**
 * POST /resources/ai/summarize with the recommendation (snake_case fields, fractions for
 * percentages): the option detail's AI explanation (docs/product.md#states-ai 'Explain', #calls-recommendations POST
 * /api/summarize-trade-recommendation), streamed through as text/plain while the provider writes it.
 * The contract checks the body before it leaves (422 with the reason).
 */
export async function action({ request, context }: Route.ActionArgs) {
  return streamAiFromProvider(context, request, calls.summarizeRecommendation, await jsonBody(request));
}
