/**
 * Reading an AI text stream from the app's resource routes (docs/product.md#states-ai, #errors-ai), with no React in
 * it: app/hooks/use-ai-stream.ts binds it to
 * state. The text is handed over piece by piece as it arrives.
 */
import type { Href } from "#app/lib/href.ts";
import { messages } from "./messages.ts";

/** The app's AI resource routes (POST, JSON body). */
export const AI_ROUTES = {
  /** Body `{ ticker }`: the UIP list's AI analysis modal. */
  stockAnalysis: "/resources/ai/stock-analysis" satisfies Href,
  /** Body: the recommendation with snake_case fields (contract SummarizeBody): the option detail's 'Explain'. */
  summarize: "/resources/ai/summarize" satisfies Href,
} as const;

export type AiStreamStatus = "idle" | "streaming" | "done" | "error";

export interface AiStreamState {
  text: string;
  status: AiStreamStatus;
  /** docs/product.md#errors-ai: 'No response body received from server.' or 'Error fetching AI analysis.'; null otherwise. */
  error: string | null;
}

export const AI_IDLE: AiStreamState = { text: "", status: "idle", error: null };

type AiStreamOutcome =
  | { kind: "done" }
  | { kind: "error"; error: string }
  /** The session ended (the route redirected to /login): the page should follow. */
  | { kind: "redirect"; url: string }
  | { kind: "aborted" };

/**
 * POSTs `body` as JSON to `url` and hands each decoded piece of the answer to `onText`.
 * Never throws: the outcome says how it ended.
 */
export async function streamAiText(
  url: string,
  body: unknown,
  {
    signal,
    onText,
    fetchImpl = fetch,
  }: { signal?: AbortSignal; onText: (piece: string) => void; fetchImpl?: typeof fetch },
): Promise<AiStreamOutcome> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/plain" },
      body: JSON.stringify(body ?? {}),
      signal,
    });
  } catch {
    return signal?.aborted ? { kind: "aborted" } : { kind: "error", error: messages.aiFailed };
  }
  // An ended session answers with a redirect to /login, which fetch follows.
  if (response.redirected && new URL(response.url).pathname === ("/login" satisfies Href)) {
    void response.body?.cancel().catch(() => {});
    return { kind: "redirect", url: response.url };
  }
  if (!response.ok) {
    // Too many AI texts: the provider's detail says how long to wait (README "Security and limits").
    if (response.status === 429) {
      const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
      if (typeof body?.detail === "string" && body.detail) return { kind: "error", error: body.detail };
    }
    void response.body?.cancel().catch(() => {});
    return { kind: "error", error: messages.aiFailed };
  }
  if (!response.body) return { kind: "error", error: messages.noResponseBody };

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const piece = decoder.decode(value, { stream: true });
      if (piece) onText(piece);
    }
    const tail = decoder.decode();
    if (tail) onText(tail);
    return { kind: "done" };
  } catch {
    return signal?.aborted ? { kind: "aborted" } : { kind: "error", error: messages.aiFailed };
  } finally {
    reader.releaseLock();
  }
}
