import type { RouterContextProvider } from "react-router";
import type { Endpoint } from "#contract/endpoint.ts";
import { messages } from "#app/lib/messages.ts";
import { userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";

/** Headers of a streamed AI text: nothing on the way (compression, proxies, caches) may hold pieces back. */
const AI_STREAM_HEADERS = {
  "content-type": "text/plain; charset=utf-8",
  "cache-control": "no-store, no-transform",
  "x-content-type-options": "nosniff",
  "x-accel-buffering": "no",
};

/**
 * Answers a resource route's POST with the provider's streamed text, passed through piece by piece
 * (never read whole), called with the session's token. The browser going away aborts the provider
 * call. Failures answer JSON `{ detail }` with the provider's status (503 when it is unreachable);
 * an ended session redirects to /login (userCall).
 */
export async function streamAiFromProvider(
  context: Readonly<RouterContextProvider>,
  request: Request,
  endpoint: Endpoint,
  body: unknown,
): Promise<Response> {
  try {
    const stream = await userCall(context, endpoint, { body, signal: request.signal });
    return new Response(stream as ReadableStream<Uint8Array>, { status: 200, headers: AI_STREAM_HEADERS });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const status = error.status >= 400 ? error.status : 503;
    return Response.json(
      { detail: error.detail ?? (error.status ? error.message : messages.network) },
      { status, headers: { "cache-control": "no-store" } },
    );
  }
}

/** The JSON body of a resource route's POST, or undefined when it is not JSON. */
export async function jsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return undefined;
  }
}
