import type { Href } from "#app/lib/href.ts";
import { messages } from "#app/lib/messages.ts";
import {
  answers,
  isDataUrl,
  OFFLINE_SAVE_HEADER,
  pageOfDataUrl,
  SAVED_AT_HEADER,
  SAVED_PREFIX,
  SW,
  type OfflineAnswer,
  type ScreenPolicy,
} from "#app/offline/protocol.ts";
import { SIGNED_OUT_HEADER } from "#app/lib/signed-out.ts";
import { escapeHtml } from "#app/lib/html.ts";
import { SAVED } from "./precache.ts";
import { tellPage, type FetchEventLike } from "./scope.ts";

/**
 * Screens kept for reading offline: their documents and loader data (`.data`) are fetched network
 * first; each good answer is saved; when the network fails (or, for the lists, is slower than a
 * short wait) the last saved copy answers and the page is told how old it is.
 */
const SHORT_WAIT_MS = 4_000;

/** Documents shown from a saved copy, by the page (client) they became: the page asks (SW.hello). */
interface SavedState {
  path: string;
  savedAt: number;
  slow: boolean;
  /** Shown under a "fresh-first" policy (recommendations). */
  freshFirst: boolean;
}
const servedSaved = new Map<string, SavedState>();

/**
 * When this browser last changed something through the worker: a copy saved before it is not
 * shown as a stand-in for a slow answer (it would undo the change on screen), only when offline.
 */
let lastChangeAt = 0;
export function changedNow(): void {
  lastChangeAt = Date.now();
}

export function savedStateOf(clientId: string): SavedState | undefined {
  return servedSaved.get(clientId);
}

export async function forgetSavedScreens(): Promise<void> {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(SAVED_PREFIX)).map((name) => caches.delete(name)));
  servedSaved.clear();
}

/** What to do when the server answers a read without a session (set by app/offline/worker.ts). */
let whenSignedOut: () => Promise<void> = async () => undefined;
export function onSignedOut(listener: () => Promise<void>): void {
  whenSignedOut = listener;
}

/**
 * A read from the network. An answer marked as given without a session (the cookie expired or was
 * dropped: app/server/signed-out.server.ts) makes the worker forget the last user's data before the
 * page sees it, as sign-out does (issue 19 item 4).
 */
async function fromNetwork(request: Request): Promise<Response> {
  const response = await fetch(request);
  if (response.headers.get(SIGNED_OUT_HEADER) === "1") await whenSignedOut();
  return response;
}

type Outcome = { kind: "network"; response: Response } | { kind: "failed" } | { kind: "slow" };

/**
 * Answers a GET for a saved screen: a document (`navigate`), its loader data (`.data`) or a
 * resource it reads (the price chart; `page` null: the page's indicator is not about it).
 */
export async function serveScreen(event: FetchEventLike, policy: ScreenPolicy, page: string | null): Promise<Response> {
  const request = event.request;
  const isDocument = request.mode === "navigate";
  // Whom to tell where the answer came from; nobody for a resource.
  const clientId = page === null ? "" : isDocument ? event.resultingClientId : event.clientId;
  const cache = await caches.open(SAVED);

  const network = fromNetwork(request);
  // The page gets the answer as it streams in; a copy is saved once it is complete (even after
  // the page was answered from an older copy).
  event.waitUntil(
    network
      .then(async (response) => {
        const signedIn = !response.headers.has(SIGNED_OUT_HEADER);
        if (response.status === 200 && response.type === "basic" && !response.redirected && signedIn) {
          await cache.put(request.url, await stamped(response.clone()));
        }
      })
      .catch(() => undefined),
  );

  const waits: Promise<Outcome>[] = [
    network.then(
      (response): Outcome => ({ kind: "network", response }),
      (): Outcome => ({ kind: "failed" }),
    ),
  ];
  if (policy === "saved") waits.push(delay(SHORT_WAIT_MS).then((): Outcome => ({ kind: "slow" })));
  const first = await Promise.race(waits);

  if (first.kind === "network") {
    if (isDocument) servedSaved.delete(clientId);
    else void tellPage(clientId, { kind: SW.freshness, path: page, savedAt: null });
    // A screen reached inside the app (its data only) is kept as a page too, to open offline
    // (not recommendations: they are worth little without the network, and costly to render).
    if (!isDocument && page !== null && policy === "saved" && first.response.ok) {
      event.waitUntil(keepPage(cache, request.url));
    }
    return first.response;
  }

  const saved = await findSaved(cache, request, first.kind === "slow" ? lastChangeAt : 0);
  if (saved) {
    const savedAt = Number(saved.headers.get(SAVED_AT_HEADER)) || Date.now();
    const slow = first.kind === "slow";
    // Recommendations are told apart by the page's note ("saved recommendations").
    const freshFirst = policy === "fresh-first";
    if (isDocument && page !== null) servedSaved.set(clientId, { path: page, savedAt, slow, freshFirst });
    else void tellPage(clientId, { kind: SW.freshness, path: page, savedAt, slow, freshFirst });
    if (first.kind === "slow") {
      // When the slow answer comes, the page reloads its data from it.
      network.then(
        (response) => {
          if (response.ok) void tellPage(clientId, { kind: SW.freshAvailable, path: page });
        },
        () => undefined,
      );
    }
    return saved;
  }
  if (first.kind === "slow") {
    try {
      const response = await network;
      if (!isDocument) void tellPage(clientId, { kind: SW.freshness, path: page, savedAt: null });
      return response;
    } catch {
      // no network after all
    }
  }
  return isDocument ? offlinePage(page ?? ("/user-stocks" satisfies Href)) : noCopy();
}

/** A document outside the saved screens: the network, else the offline page. */
export async function networkOrOfflinePage(request: Request, page: string): Promise<Response> {
  try {
    return await fromNetwork(request);
  } catch {
    return offlinePage(page);
  }
}

/** Loader data outside the saved screens: the network, else "no copy" (the page loads it as a document). */
export async function networkOrNoCopy(request: Request): Promise<Response> {
  try {
    return await fromNetwork(request);
  } catch {
    return noCopy();
  }
}

/**
 * The saved answer for a read: the same URL; else, for loader data, one of the same page holding
 * every route asked for; else one of the same path with another search (a list's search or a
 * dialog in the URL: better than nothing offline). Newest first; none saved before `notBefore`.
 */
async function findSaved(cache: Cache, request: Request, notBefore: number): Promise<Response | undefined> {
  const savedAt = (response: Response) => Number(response.headers.get(SAVED_AT_HEADER));
  const exact = await cache.match(request.url);
  if (exact && savedAt(exact) >= notBefore) return exact;
  const wanted = new URL(request.url);
  const isDocument = request.mode === "navigate";
  const ranked: { response: Response; sameSearch: boolean }[] = [];
  for (const key of await cache.keys()) {
    const saved = new URL(key.url);
    const fits = isDocument
      ? saved.pathname === wanted.pathname
      : answers(saved, wanted, { ignoreSearch: true }) && isDataUrl(saved);
    if (!fits) continue;
    const response = await cache.match(key);
    if (!response || savedAt(response) < notBefore) continue;
    const sameSearch = isDocument ? saved.search === wanted.search : answers(saved, wanted);
    ranked.push({ response, sameSearch });
  }
  ranked.sort((a, b) => Number(b.sameSearch) - Number(a.sameSearch) || savedAt(b.response) - savedAt(a.response));
  return ranked[0]?.response;
}

/** A kept page is fetched again in the background at most this often. */
const PAGE_REFRESH_MS = 10 * 60_000;
const pageFetchedAt = new Map<string, number>();

/** Keeps (or refreshes) the page of a `.data` read that the network answered, for opening offline. */
async function keepPage(cache: Cache, dataUrl: string): Promise<void> {
  const { pathname, search } = pageOfDataUrl(new URL(dataUrl));
  const pageUrl = new URL(pathname + search, dataUrl).href;
  if (Date.now() - (pageFetchedAt.get(pageUrl) ?? 0) < PAGE_REFRESH_MS) return;
  const kept = await cache.match(pageUrl);
  if (kept && Date.now() - Number(kept.headers.get(SAVED_AT_HEADER)) < PAGE_REFRESH_MS) return;
  pageFetchedAt.set(pageUrl, Date.now());
  try {
    const response = await fetch(pageUrl, {
      credentials: "same-origin",
      redirect: "manual",
      headers: { accept: "text/html", [OFFLINE_SAVE_HEADER]: "1" },
    });
    if (response.status === 200 && response.type === "basic") await cache.put(pageUrl, await stamped(response));
  } catch {
    // Tried again with the next read of this screen.
    pageFetchedAt.delete(pageUrl);
  }
}

async function stamped(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT_HEADER, String(Date.now()));
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The worker's answer to a read with no network and no saved copy (the page tells it by its body). */
function noCopy(): Response {
  const body: OfflineAnswer = { offline: { queued: false, noCopy: true } };
  return new Response(JSON.stringify(body), {
    status: 503,
    statusText: "Offline",
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

/** A plain page for a screen that was never saved here (no scripts: it works whatever the CSP). */
export function offlinePage(page: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#0b1220"><title>Offline · PutSeller</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0b1220;color:#e6edf7;font-family:system-ui,sans-serif;padding:24px;box-sizing:border-box}
main{max-width:420px}h1{font-size:1.4rem}p{color:#93a1b8}a{display:inline-block;margin:8px 12px 0 0;color:#3b82f6}</style></head>
<body><main><h1>${escapeHtml(messages.offlineTitle)}</h1>
<p>${escapeHtml(messages.offlineNotSaved)}</p>
<p><a href="${escapeHtml(page)}">${escapeHtml(messages.offlineTryAgain)}</a><a href="/user-stocks">${escapeHtml(messages.offlineToWatchlist)}</a></p>
</main></body></html>`;
  return new Response(html, {
    status: 503,
    statusText: "Offline",
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
