import type { Route } from "./+types/ai.stock-analysis";
import * as calls from "#contract/calls.ts";
import { jsonBody, streamAiFromProvider } from "./ai-stream.server.ts";

/**
 * POST /resources/ai/stock-analysis `{ ticker }`: the UIP list's AI analysis (docs/product.md#states-ai, #calls-stocks
 * POST /api/gen-ai-stock-analysis), streamed through as text/plain while the provider writes it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const body = (await jsonBody(request)) as { ticker?: unknown } | undefined;
  return streamAiFromProvider(context, request, calls.stockAnalysis, { ticker: body?.ticker });
}
