/**
 * An explainer's pieces as a streamed `text/plain` response. The first piece is awaited before
 * answering, so a failure before any text is a plain HTTP error (the app shows 'Error fetching AI analysis.'
 * (docs/product.md#errors-ai)); a failure later ends the text with a line saying it stopped.
 * Every piece is sent as soon as it exists; a reader that goes away aborts the producer.
 */
import { AiError } from "./port.ts";

const TEXT_STREAM_HEADERS = {
  "content-type": "text/plain; charset=utf-8",
  // no-transform: proxies (and the compression middleware) must not hold pieces back to compress them.
  "cache-control": "no-store, no-transform",
  "x-content-type-options": "nosniff",
  // nginx and similar proxies buffer responses unless told not to.
  "x-accel-buffering": "no",
};

/** The line that ends a text cut short. */
function stoppedLine(error: unknown): string {
  const why = error instanceof AiError ? error.message : "The explanation stopped because of an error.";
  return `\n\n[${why} The text above is incomplete.]`;
}

export async function streamText(
  produce: (signal: AbortSignal) => AsyncIterable<string>,
  requestSignal?: AbortSignal,
): Promise<Response> {
  const abort = new AbortController();
  const onRequestAbort = () => abort.abort(requestSignal?.reason);
  requestSignal?.addEventListener("abort", onRequestAbort, { once: true });
  const release = () => requestSignal?.removeEventListener("abort", onRequestAbort);
  const iterator = produce(abort.signal)[Symbol.asyncIterator]();

  let first: string | undefined;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (next.value) {
        first = next.value;
        break;
      }
    }
  } catch (error) {
    release();
    abort.abort();
    throw error;
  }
  if (first === undefined) {
    release();
    throw new AiError(502, "The explanation came back empty.");
  }

  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(first));
      },
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) {
            release();
            controller.close();
          } else if (next.value) controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          release();
          if (abort.signal.aborted) return;
          if (!(error instanceof AiError)) console.error("[ai] explanation failed mid-stream:", error);
          controller.enqueue(encoder.encode(stoppedLine(error)));
          controller.close();
        }
      },
      cancel() {
        release();
        abort.abort();
        void Promise.resolve(iterator.return?.()).catch(() => {});
      },
    },
    // Pull a piece only when the previous one has gone out.
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: TEXT_STREAM_HEADERS });
}
