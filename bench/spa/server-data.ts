import {
  redirect,
  redirectDocument,
  UNSAFE_decodeViaTurboStream as decodeViaTurboStream,
  UNSAFE_SingleFetchRedirectSymbol as SingleFetchRedirectSymbol,
  type ClientLoaderFunctionArgs,
} from "react-router";

/**
 * The client loader of every route in the SPA-mode bench build (route-modules-plugin.ts): reads
 * the route's data from the running app's single-fetch endpoint (`/<path>.data`, same origin, the
 * session cookie), decoded as React Router decodes it for client navigations. The loaders of one
 * navigation (they share its Request) share one request for all their data, as one API call per
 * screen would; the root's loader, whose module is loaded first, starts it.
 */
type Decoded = Record<string | symbol, unknown>;
type RouteResult = { data: unknown } | { error: unknown };
type Redirect = { redirect: string; status: number; reload: boolean; replace: boolean };

const byNavigation = new WeakMap<Request, Promise<Decoded>>();

export function serverData({ request }: ClientLoaderFunctionArgs, routeId: string): Promise<unknown> {
  let pending = byNavigation.get(request);
  if (!pending) {
    const url = new URL(request.url);
    url.pathname = url.pathname.endsWith("/") ? `${url.pathname}_.data` : `${url.pathname}.data`;
    pending = fetchDecoded(url, request.signal);
    byNavigation.set(request, pending);
  }
  return pending.then((decoded) => unwrap(decoded, routeId));
}

async function fetchDecoded(url: URL, signal: AbortSignal): Promise<Decoded> {
  const response = await fetch(url, { signal, credentials: "same-origin" });
  const location = response.headers.get("X-Remix-Redirect");
  if (response.status === 204 && location) {
    return {
      [SingleFetchRedirectSymbol]: {
        redirect: location,
        status: Number(response.headers.get("X-Remix-Status") ?? 302),
        reload: response.headers.get("X-Remix-Reload-Document") === "true",
        replace: response.headers.get("X-Remix-Replace") === "true",
      } satisfies Redirect,
    };
  }
  if (!response.ok && response.status !== 202) throw new Response(await response.text(), { status: response.status });
  if (!response.body) throw new Error(`${url.pathname}: no body`);
  const { value } = await decodeViaTurboStream(response.body, window);
  return value as Decoded;
}

function unwrap(decoded: Decoded, routeId: string): unknown {
  if (SingleFetchRedirectSymbol in decoded) {
    const { redirect: to, status, reload, replace } = decoded[SingleFetchRedirectSymbol] as Redirect;
    const init = { status, headers: replace ? { "X-Remix-Replace": "yes" } : undefined };
    throw reload ? redirectDocument(to, init) : redirect(to, init);
  }
  const result = decoded[routeId] as RouteResult | undefined;
  if (!result) throw new Error(`No data for ${routeId}`);
  if ("error" in result) throw result.error;
  return result.data;
}
