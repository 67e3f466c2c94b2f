import type { Href } from "#app/lib/href.ts";
import { messages } from "#app/lib/messages.ts";
import { isDataUrl, pageOfDataUrl, SW } from "./protocol.ts";
import { isQueuedChange, screenPolicy } from "./sw/route-policies.ts";
import { dropAll, handleChange, hasPending, pendingChanges, replay } from "./sw/outbox.ts";
import { BUILD, dropOtherBuilds, fromPrecache, isPrecached, precache } from "./sw/precache.ts";
import {
  forgetSavedScreens,
  networkOrNoCopy,
  networkOrOfflinePage,
  offlinePage,
  onSignedOut,
  savedStateOf,
  serveScreen,
} from "./sw/screens.ts";
import { sw, tellPage, type FetchEventLike, type MessageEventLike } from "./sw/scope.ts";

/**
 * The worker's offline part (issue 11): the app shell precached, saved screens for reading
 * offline, the outbox for changes made offline, the update handshake, and forgetting the user's
 * data at sign-out. Push lives in app/service-worker.ts.
 */
export function startOffline(): void {
  sw.addEventListener("install", (event) => {
    // No skipWaiting here: a new version waits until the page agrees to refresh (docs/product.md#states-sw-update).
    event.waitUntil(precache().then(() => console.debug(`[service-worker] build ${BUILD} installed`)));
  });
  sw.addEventListener("activate", (event) => {
    event.waitUntil(dropOtherBuilds());
  });
  sw.addEventListener("fetch", onFetch);
  sw.addEventListener("message", onMessage);
  // A read answered without a session (it expired or was dropped, no sign-out): as at sign-out.
  onSignedOut(forgetUserData);
  // Background Sync (Chromium): the browser says the connection is back, even with no page open.
  sw.addEventListener("sync", (event) => {
    if (event.tag === "outbox") event.waitUntil(replay(false));
  });
}

function onFetch(event: FetchEventLike): void {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;

  if (request.method === "GET") {
    if (isPrecached(url)) {
      event.respondWith(fromPrecache(request));
      return;
    }
    if (request.mode === "navigate") {
      const policy = screenPolicy(url.pathname);
      event.respondWith(
        policy === "network"
          ? networkOrOfflinePage(request, url.pathname + url.search)
          : serveScreen(event, policy, url.pathname),
      );
      return;
    }
    if (isDataUrl(url)) {
      const page = pageOfDataUrl(url);
      const policy = screenPolicy(page.pathname);
      event.respondWith(policy === "network" ? networkOrNoCopy(request) : serveScreen(event, policy, page.pathname));
      return;
    }
    // Resources a saved screen reads (the price chart's data).
    const policy = screenPolicy(url.pathname);
    if (policy !== "network") event.respondWith(serveScreen(event, policy, null));
    return;
  }

  if (request.method !== "POST") return;
  const page = isDataUrl(url) ? pageOfDataUrl(url).pathname : url.pathname;
  if (page === ("/logout" satisfies Href)) {
    event.respondWith(signOut(event));
    return;
  }
  if (page === ("/login" satisfies Href)) {
    event.respondWith(signIn(request));
    return;
  }
  // Without JavaScript in the page, a form is a plain document post: left to the browser.
  if (!isDataUrl(url)) return;
  if (isQueuedChange(page)) {
    event.respondWith(handleChange(request, page));
    return;
  }
  event.respondWith(sendOrSayOffline(request));
}

/** A form the outbox does not keep (profile, sign-in, insights): sent, or "offline" for the page to tell. */
async function sendOrSayOffline(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    return notSent();
  }
}

function notSent(): Response {
  return new Response(JSON.stringify({ offline: { queued: false } }), {
    status: 503,
    statusText: "Offline",
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

/**
 * Sign-in (any form of /login that leads on: a redirect). A new session may be someone else's:
 * what this browser kept of the previous one goes, and changes still waiting are not sent under it.
 */
async function signIn(request: Request): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(request);
  } catch {
    return request.mode === "navigate" ? offlinePage("/login" satisfies Href) : notSent();
  }
  const redirected =
    response.type === "opaqueredirect" ||
    response.status === 202 ||
    response.headers.has("X-Remix-Redirect") ||
    (response.status >= 300 && response.status < 400);
  if (redirected) await forgetUserData();
  return response;
}

/**
 * Sign-out: waiting changes are sent first (afterwards they could not be); once the server has
 * ended the session, the saved screens and the outbox are forgotten (they hold the user's data).
 */
async function signOut(event: FetchEventLike): Promise<Response> {
  const request = event.request;
  if (await hasPending()) await replay(false);
  let response: Response;
  try {
    response = await fetch(request);
  } catch {
    void tellPage(event.clientId, { kind: SW.notice, type: "warning", text: messages.signOutOffline });
    // Back to the page the user is on: React Router follows this like a redirect.
    const back = new URL(request.referrer || ("/user-stocks" satisfies Href), sw.location.origin);
    return new Response(null, {
      status: 204,
      headers: { "X-Remix-Redirect": back.pathname + back.search, "X-Remix-Replace": "true" },
    });
  }
  if (response.status < 400 || response.type === "opaqueredirect") await forgetUserData();
  return response;
}

async function forgetUserData(): Promise<void> {
  await forgetSavedScreens();
  await dropAll(messages.outboxSignedOut);
}

function onMessage(event: MessageEventLike): void {
  const data = event.data as { kind?: string; type?: string; manual?: boolean } | null;
  const kind = data?.kind ?? data?.type;
  switch (kind) {
    case SW.skipWaiting:
      event.waitUntil(sw.skipWaiting());
      return;
    case SW.hello: {
      const source = event.source;
      if (!source) return;
      event.waitUntil(
        (async () => {
          const saved = savedStateOf(source.id);
          source.postMessage({
            kind: SW.freshness,
            path: saved?.path ?? null,
            savedAt: saved?.savedAt ?? null,
            slow: saved?.slow ?? false,
            freshFirst: saved?.freshFirst ?? false,
          });
          source.postMessage({ kind: SW.outbox, changes: await pendingChanges() });
        })(),
      );
      return;
    }
    case SW.replay:
      event.waitUntil(replay(Boolean(data?.manual)));
      return;
    case SW.forget:
      event.waitUntil(forgetUserData());
      return;
  }
}
