import { data, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { Ticker } from "#contract/entities.ts";
import { ENHANCED_FIELD } from "#app/lib/action-reply.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { INSIGHTS_PARAM, INSIGHTS_PATH, insightsSearch, type GenerateReply } from "#app/lib/insights.ts";
import { userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast, Toast } from "#app/server/toast.server.ts";

/**
 * Generates recommendations for one ticker (docs/product.md#screens-insights, #errors-ai): the
 * provider's message on success, 'Not found' on 404, 'Not authorized to generate recommendations'
 * on 403, else 'An unexpected error occurred'. Header toasts close after 3 s. A fetcher gets the
 * answer as data; a plain form post is redirected back to the list with a flash toast. Success
 * expands the ticker's card.
 */
export async function generateAction(
  context: Readonly<RouterContextProvider>,
  formData: FormData,
  search: URLSearchParams,
) {
  const listUrl = (ticker?: string) =>
    INSIGHTS_PATH +
    insightsSearch(search, (p) => {
      if (!ticker) return;
      p.set(INSIGHTS_PARAM.open, ticker);
      p.delete(INSIGHTS_PARAM.date);
    });

  const parsed = Ticker.safeParse(String(formData.get("ticker") ?? ""));
  if (!parsed.success) {
    return reply(formData, {
      ok: false,
      text: parsed.error.issues[0]?.message ?? messages.unexpected,
      redirectTo: listUrl(),
      status: 422,
    });
  }
  const ticker = parsed.data;
  try {
    const { message } = await userCall(context, calls.generateRecommendations, { params: { ticker } });
    return reply(formData, { ok: true, ticker, text: message, redirectTo: listUrl(ticker) });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // Too many generations: the provider's detail says how long to wait (README "Security and limits").
    const text =
      error.status === 404
        ? messages.notFound
        : error.status === 403
          ? messages.notAuthorizedGenerate
          : error.status === 429 && error.detail
            ? error.detail
            : messages.unexpected;
    return reply(formData, {
      ok: false,
      text,
      redirectTo: listUrl(),
      status: error.status >= 400 ? error.status : 503,
    });
  }
}

async function reply(
  formData: FormData,
  {
    ok,
    ticker = null,
    text,
    redirectTo,
    status,
  }: { ok: boolean; ticker?: string | null; text: string; redirectTo: string; status?: number },
) {
  const toast = Toast.parse({ type: ok ? "success" : "error", text, autoClose: TOAST_MS.app });
  if (formData.get(ENHANCED_FIELD) === "1") {
    const answer: GenerateReply = {
      ok,
      ticker,
      toast: { id: toast.id, type: toast.type, text: toast.text, autoClose: toast.autoClose },
    };
    return data(answer, { status: status ?? (ok ? 200 : 400) });
  }
  return redirectWithToast(redirectTo, toast);
}
