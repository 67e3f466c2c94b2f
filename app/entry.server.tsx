import { PassThrough } from "node:stream";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { nonceContext } from "./server/context.server.ts";
import { NonceProvider } from "./components/nonce.tsx";
import { scriptsAfterPaint } from "./server/scripts-after-paint.server.ts";
import { scriptsTrigger } from "./server/scripts-trigger.server.ts";

/**
 * server.ts builds each request's RouterContextProvider with its own copy of react-router
 * (the dev server may load another), so it takes the context key from here.
 */
export { nonceContext, clientAddressContext } from "./server/context.server.ts";
/** server.ts passes the settings (secrets included) to the build's own copy of the settings module. */
export { provideAppEnv } from "./server/env.server.ts";
/** …and the embedded provider's handler, which the build's provider calls then use in-process. */
export { provideProviderFetch } from "./server/provider.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(nonceContext);
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Bots get the whole page at once; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // Scripts are requested once the page has painted (ADR 0044), or, on the landing page, at
          // the visitor's first interaction (ADR 0061).
          pipe(scriptsAfterPaint(scriptsTrigger(request, routerContext))).pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
