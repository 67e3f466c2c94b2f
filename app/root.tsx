import type { Href } from "#app/lib/href.ts";
import { lazy, Suspense } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/root";
import { Toaster } from "./components/toaster.tsx";
import { ServiceWorker } from "./components/service-worker.tsx";
import { OfflineStatus, offlineClientMiddleware } from "#app/offline/ui.tsx";
import { offlineMiddleware } from "#app/offline/index.server.ts";
import { signedOutMiddleware } from "./server/signed-out.server.ts";
import { useNonce } from "./components/nonce.tsx";
import { messages } from "./lib/messages.ts";
import { OFFLINE_SAVE_HEADER } from "#app/offline/index.ts";
import { takeToast } from "./server/toast.server.ts";
import styles from "./styles/index.css?url";
import { isSameScreen } from "./lib/revalidation.ts";
import { useHydrated } from "./hooks/use-hydrated.ts";
import { HYDRATED_ATTRIBUTE } from "./lib/page-scripts.ts";

export const links: Route.LinksFunction = () => [
  // One stylesheet for every screen; `precedence` puts it ahead of the modulepreloads (ADR 0019).
  { rel: "stylesheet", href: styles, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // Installable app (issue 11): the manifest, and the home-screen icon iOS reads instead.
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

/**
 * Offline, a change of search alone (list search, dialogs, reorder mode) does not reload the root's
 * data: it only carries the flash toast, which no server can send now, and reading it would fail
 * for want of a saved answer (issue 11).
 */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  const offline = typeof navigator !== "undefined" && !navigator.onLine;
  if (offline && isSameScreen(args)) return false;
  return args.defaultShouldRevalidate;
}

/**
 * Offline outbox and replays (app/offline/middleware.server.ts); reads without a session marked so the
 * worker forgets the last user's saved screens (server/signed-out.server.ts); offline answers in
 * the browser (app/offline/client-middleware.ts).
 */
export const middleware = [offlineMiddleware, signedOutMiddleware];
export const clientMiddleware = [offlineClientMiddleware];

export async function loader({ request }: Route.LoaderArgs) {
  // A page the service worker keeps for offline use must not take the toast meant for the screen
  // (nor hand one out: offlineMiddleware drops a flash cookie from its answer).
  if (request.headers.get(OFFLINE_SAVE_HEADER)) return data({ toast: null });
  const { toast, setCookie } = await takeToast(request);
  return data({ toast }, setCookie ? { headers: { "set-cookie": setCookie } } : undefined);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // Set once the first render after hydration (a transition, app/hooks/use-hydrated.ts) is in. The
  // landing page's script loader waits for it to send a held form (ADR 0061).
  const hydrated = useHydrated();
  return (
    <html lang="en" {...{ [HYDRATED_ATTRIBUTE]: hydrated || undefined }}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#0b1220" />
        <meta name="mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-title" content="PutSeller" />
        <meta name="apple-mobile-web-app-status-bar-style" content="black-translucent" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

// Shown only when a new version waits (docs/product.md#states-sw-update): loaded once the page is
// interactive, not with every screen's first-load JavaScript (about 1 kB gzip, docs/benchmarks.md).
const UpdatePrompt = lazy(() => import("./components/update-prompt.tsx").then((m) => ({ default: m.UpdatePrompt })));

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  return (
    <>
      <OfflineStatus forgetKey={toast?.clearStorage ? toast.id : null} />
      <Outlet />
      <Toaster toast={toast} />
      <ServiceWorker />
      {hydrated ? (
        <Suspense fallback={null}>
          <UpdatePrompt />
        </Suspense>
      ) : null}
    </>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "PutSeller" },
  {
    name: "description",
    content: "Watchlist, intrinsic values and sell-put recommendations for cash-secured put sellers.",
  },
];

/** docs/product.md#screens-routing: the default router error screen reads 'Unexpected Application Error!'. */
export function ErrorBoundary() {
  const error = useRouteError();
  // A post that is not a form (app/server/form-body.server.ts) and a page the service cannot load now
  // (app/server/unavailable.server.ts) say so in their own sentence; others name the status.
  const detail = isRouteErrorResponse(error)
    ? (error.status === 400 || error.status === 415 || error.status === 503) &&
      typeof error.data === "string" &&
      error.data
      ? error.data
      : `${error.status} ${error.statusText}`
    : import.meta.env.DEV && error instanceof Error
      ? error.message
      : null;
  return (
    <main className="error-screen">
      <h1>{messages.unexpectedApplicationError}</h1>
      {detail ? <p>{detail}</p> : null}
      <a href={"/user-stocks" satisfies Href}>Back to the watchlist</a>
    </main>
  );
}
