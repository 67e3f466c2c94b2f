/**
 * An OpenAI-compatible chat-completions client, streaming (`stream: true`: server-sent events of
 * `data: {json}` lines ending with `data: [DONE]`). Works with hosted APIs and local servers
 * (Ollama, vLLM, llama.cpp). Nothing can hang: the answer must start, and every later piece
 * arrive, within the timeout; vendor errors, a cut connection and an empty answer become AiError.
 */
import { AiError, type AiSettings, type Explainer } from "./port.ts";
import { recommendationMessages, stockAnalysisMessages, type ChatMessage } from "./prompt.ts";

const DEFAULT_AI_TIMEOUT_MS = 30_000;
/** Longest vendor error body read into a message. */
const MAX_ERROR_CHARS = 300;

class Timeout extends Error {}

export function createOpenAiExplainer(settings: AiSettings): Explainer {
  const endpoint = `${settings.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_AI_TIMEOUT_MS;
  const seconds = `${Math.round(timeoutMs / 100) / 10} s`;

  async function* complete(messages: ChatMessage[], signal: AbortSignal): AsyncGenerator<string> {
    const abort = new AbortController();
    const onAbort = () => abort.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    // One timer, re-armed whenever the vendor sends something.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(new Timeout()), timeoutMs);
    };
    const timedOut = () => abort.signal.reason instanceof Timeout;
    arm();
    try {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "text/event-stream",
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: settings.model, messages, stream: true, temperature: 0.2 }),
          signal: abort.signal,
        });
      } catch (error) {
        if (timedOut()) throw new AiError(504, `The AI service did not answer within ${seconds}.`);
        if (signal.aborted) return;
        throw new AiError(502, `The AI service could not be reached (${(error as Error).message}).`);
      }
      arm();

      if (!response.ok) {
        const text = await response.text().catch(() => "");
        // Never pass the vendor's status on: its 401 (a bad AI_API_KEY) is not the user's session.
        throw new AiError(502, `The AI service answered ${response.status}${vendorMessage(text)}.`);
      }
      if (!response.body) throw new AiError(502, "The AI service sent no answer.");

      let wrote = false;
      const contentType = response.headers.get("content-type") ?? "";
      if (contentType.includes("application/json")) {
        // A server that ignored stream: true answers one JSON completion.
        const text = await response.text();
        const content = messageContent(text);
        if (content) {
          wrote = true;
          yield content;
        }
      } else {
        for await (const event of serverSentEvents(response.body, arm)) {
          if (event === "[DONE]") break;
          const piece = deltaOf(event);
          if (piece.error) throw new AiError(502, `The AI service reported an error: ${piece.error}.`);
          if (piece.content) {
            wrote = true;
            yield piece.content;
          }
          if (piece.finish === "length") {
            yield "\n\n[The AI service stopped at its length limit.]";
            break;
          }
        }
      }
      if (!wrote) throw new AiError(502, "The AI service returned an empty answer.");
    } catch (error) {
      if (error instanceof AiError) throw error;
      if (timedOut()) throw new AiError(504, `The AI service sent nothing for ${seconds}.`);
      if (signal.aborted) return;
      throw new AiError(502, `The AI service connection failed (${(error as Error).message}).`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      abort.abort();
    }
  }

  return {
    kind: "openai-compatible",
    stockAnalysis: (facts, signal) => complete(stockAnalysisMessages(facts), signal),
    recommendationSummary: (facts, signal) => complete(recommendationMessages(facts), signal),
  };
}

/**
 * The `data:` payloads of a server-sent event stream, one per event (multi-line data joined by
 * newlines); `onBytes` is called whenever bytes arrive. Ends with the stream; a stream that ends
 * mid-event still yields that event.
 */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
  onBytes: () => void = () => {},
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onBytes();
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
        if (line === "") {
          if (data.length) yield data.join("\n");
          data = [];
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
        }
        // Comments (":"), event:, id: and retry: lines carry nothing we use.
      }
    }
    buffer += decoder.decode();
    if (buffer.startsWith("data:")) data.push(buffer.slice(buffer.startsWith("data: ") ? 6 : 5));
    if (data.length) yield data.join("\n");
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}

function deltaOf(data: string): { content?: string; finish?: string; error?: string } {
  let event: {
    choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[];
    error?: { message?: unknown } | string;
  };
  try {
    event = JSON.parse(data);
  } catch {
    throw new AiError(502, "The AI service sent a piece that is not JSON.");
  }
  if (event.error) {
    const message = typeof event.error === "string" ? event.error : String(event.error.message ?? "unknown error");
    return { error: message.slice(0, MAX_ERROR_CHARS) };
  }
  const choice = event.choices?.[0];
  const content = choice?.delta?.content;
  const finish = choice?.finish_reason;
  return {
    content: typeof content === "string" ? content : undefined,
    finish: typeof finish === "string" ? finish : undefined,
  };
}

function messageContent(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    return typeof content === "string" ? content : undefined;
  } catch {
    throw new AiError(502, "The AI service answered with JSON it could not read.");
  }
}

/** ": the vendor's message" from an OpenAI-style error body, else a short excerpt, else nothing. */
function vendorMessage(text: string): string {
  let message: string;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    const error = body.error;
    message = String((typeof error === "string" ? error : error?.message) ?? body.detail ?? body.message ?? "");
  } catch {
    message = text.trim();
  }
  message = message
    .replace(/\s+/g, " ")
    .slice(0, MAX_ERROR_CHARS)
    .replace(/[.\s]+$/, "");
  return message ? `: ${message}` : "";
}
