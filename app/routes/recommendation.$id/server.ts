import { data, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { EXPLAIN_PARAM } from "#app/lib/insights.ts";
import { messages } from "#app/lib/messages.ts";
import { readAiText } from "#app/server/ai-read.server.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { loadPlanFits } from "#app/server/plan-fit.server.ts";

type Context = Readonly<RouterContextProvider>;

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * One recommendation for the option detail (docs/product.md#screens-option-detail): 404 for an id
 * that is not one, 502 when the provider fails, and with `?explain=1` the AI explanation written
 * into the page. Never stored: it carries the trader's own AI text.
 */
export async function loadRecommendation(request: Request, params: { id?: string }, context: Context) {
  requireUser(context);
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) {
    return data(
      { recommendation: null, error: messages.notFound, explanation: null, planFit: null },
      { status: 404, headers: NO_STORE },
    );
  }
  let recommendation: TradeRecommendation;
  // Whether it fits the trader's plan, and how many contracts (ADR 0081), asked at the same time.
  const planFit = loadPlanFits(context, [id]);
  // Awaited below; an early answer (404, 502) leaves it, so it must not go unhandled meanwhile.
  planFit.catch(() => {});
  try {
    recommendation = await userCall(context, calls.tradeRecommendation, { params: { id } });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const notFound = error.status === 404;
    return data(
      {
        recommendation: null,
        error: notFound ? messages.notFound : messages.fetchRecommendationsFailed,
        explanation: null,
        planFit: null,
      },
      // 503 when the service cannot answer now (issue 40, finding 9): the page's own text, retried later.
      { status: notFound ? 404 : error.status === 0 || error.status === 503 ? 503 : 502, headers: NO_STORE },
    );
  }
  const explain = new URL(request.url).searchParams.get(EXPLAIN_PARAM) === "1";
  const explanation = explain
    ? await readAiText(context, request, calls.summarizeRecommendation, recommendation)
    : null;
  return data({ recommendation, error: null, explanation, planFit: await planFit }, { headers: NO_STORE });
}
