import type { RouterContextProvider } from "react-router";
import type { Endpoint } from "#contract/endpoint.ts";
import { messages } from "#app/lib/messages.ts";
import { userCall } from "./auth.server.ts";
import { ProviderError } from "./provider.server.ts";

/** How long a page waits for a whole AI text before it gives up. */
const READ_LIMIT_MS = 45_000;

/**
 * Reads an AI text whole, for a page rendered by the server (the UIP list's AI modal opened by
 * its URL, e.g. without JavaScript; with JavaScript the browser streams it instead). Failures
 * give the texts of docs/product.md#errors-ai; an ended session still redirects to /login (userCall throws it).
 */
export async function readAiText(
  context: Readonly<RouterContextProvider>,
  request: Request,
  endpoint: Endpoint,
  body: unknown,
): Promise<{ text: string; error: string | null }> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(READ_LIMIT_MS)]);
  try {
    const stream = (await userCall(context, endpoint, { body, signal })) as ReadableStream<Uint8Array> | null;
    if (!stream) return { text: "", error: messages.noResponseBody };
    const text = await new Response(stream).text();
    return text ? { text, error: null } : { text: "", error: messages.noResponseBody };
  } catch (error) {
    if (error instanceof Response) throw error;
    // Too many AI texts: the provider's detail says how long to wait (README "Security and limits").
    if (error instanceof ProviderError && error.status === 429 && error.detail)
      return { text: "", error: error.detail };
    if (error instanceof ProviderError || signal.aborted || error instanceof TypeError) {
      return { text: "", error: messages.aiFailed };
    }
    throw error;
  }
}
