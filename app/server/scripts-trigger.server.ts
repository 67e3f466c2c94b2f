import type { EntryContext } from "react-router";
import type { RouteHandle } from "#app/lib/page-scripts.ts";
import { SERVICE_WORKER_URL } from "#app/offline/index.ts";
import type { ScriptsTrigger } from "./scripts-after-paint.server.ts";

/**
 * When the page being written loads its scripts (ADR 0061): at the first interaction when a
 * route of the page asks for it (its `handle`, app/lib/page-scripts.ts) for this address, else
 * after the first paint (ADR 0044). A page that carries a flash message loads them after the paint
 * whatever its routes say: the message may be a sign-out's, after which a script clears the last
 * user's storage (docs/product.md#screens-routing); and the scripts show it as a toast rather than
 * the plain box. So does an error page.
 */
export function scriptsTrigger(request: Request, context: EntryContext): ScriptsTrigger {
  const { matches, loaderData, statusCode } = context.staticHandlerContext;
  if (statusCode !== 200) return { when: "paint" };
  const root = loaderData.root as { toast?: unknown } | undefined;
  if (root?.toast) return { when: "paint" };
  const url = new URL(request.url);
  const onInteraction = matches.some((match) => {
    const handle = context.routeModules[match.route.id]?.handle as RouteHandle | undefined;
    return handle?.hydrateOnInteraction?.(url) === true;
  });
  if (!onInteraction) return { when: "paint" };
  // The development server builds no worker (app/components/service-worker.tsx).
  return { when: "interaction", serviceWorker: import.meta.env.PROD ? SERVICE_WORKER_URL : null };
}
