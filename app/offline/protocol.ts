/**
 * The offline protocol shared by the service worker (app/service-worker.ts), the page
 * (offline-status.tsx, client-middleware.ts) and the server (middleware.server.ts):
 * the messages and headers they exchange, and how waiting changes show on a list. Which screens keep
 * their last data and which changes wait in the outbox is each route's own policy
 * (app/routes/*.offline.ts, gathered by app/offline/sw/route-policies.ts; ADR 0041). Pure: no I/O here.
 */

/** Where the worker is served from, and registered by the page (docs/product.md#screens-routing). */
export const SERVICE_WORKER_URL = "/service-worker.js";

/** Page → worker and worker → page messages (`postMessage({ kind, ... })`). */
export const SW = {
  /** Page → waiting worker: activate now (the user agreed to refresh, docs/product.md#states-sw-update). */
  skipWaiting: "SKIP_WAITING",
  /** Page → worker: say whether my data came from a saved copy, and what waits in the outbox. */
  hello: "offline:hello",
  /** Page → worker: send the waiting changes now (back online, or Retry). */
  replay: "offline:replay",
  /** Page → worker: the session ended; forget saved screens and waiting changes. */
  forget: "offline:forget",
  /** Worker → page: `{ path, savedAt, slow }`: the page's data is a copy saved at `savedAt` (null: fresh), shown because the network failed or was `slow`. */
  freshness: "offline:freshness",
  /** Worker → page: `{ changes: PendingChange[] }`, whenever the outbox changes. */
  outbox: "offline:outbox",
  /** Worker → page: `{ change, outcome }` for each change sent from the outbox. */
  replayed: "offline:replayed",
  /** Worker → page: `{ reason }`: sending stopped (still offline, server trouble); the rest waits. */
  replayStopped: "offline:replay-stopped",
  /** Worker → page: the outbox was sent; reload the screen's data. */
  replayDone: "offline:replay-done",
  /** Worker → page: a screen shown from a saved copy (slow network) now has fresh data. */
  freshAvailable: "offline:fresh-available",
  /** Worker → page: `{ text }`: show this message (e.g. sign-out needs a connection). */
  notice: "offline:notice",
} as const;

/** A change waiting in the outbox, as the page lists it. */
export interface PendingChange {
  id: number;
  label: string;
  createdAt: number;
  /** The screen it was made on, and its form fields (so a screen can show it as made). */
  page: string;
  fields: Record<string, string>;
}

/**
 * The wanted state of an on/off control (RowToggle) that waits in the outbox: the latest
 * change posted to `page` with this `intent` and row `id`, or null when none waits.
 */
export function queuedToggle(
  changes: readonly PendingChange[],
  { page, intent, id, name = "value" }: { page: string; intent: string; id: string; name?: string },
): boolean | null {
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i]!;
    if (change.page === page && change.fields.intent === intent && change.fields.id === id && name in change.fields) {
      return change.fields[name] === "true";
    }
  }
  return null;
}

/**
 * How long the page waits before asking the worker to send the outbox again, after a send stopped
 * (`current`: the last wait, null after the connection came back). No network fails at once and
 * costs nothing, and the network often returns in steps (the page hears "online" before requests
 * get through), so that retry starts at 1 s; a server that refused is given 5 s. Both double, up
 * to a minute.
 */
export function nextOutboxRetryMs(current: number | null, reason: "offline" | "server"): number {
  if (current === null) return reason === "offline" ? 1_000 : 5_000;
  return Math.min(60_000, current * 2);
}

/** What became of a change sent from the outbox (told by the app in OUTCOME_HEADER). */
export interface ReplayOutcome {
  ok: boolean;
  type: "success" | "error" | "warning" | "info";
  text: string;
  /** The session had ended: nothing more can be sent until the user signs in again. */
  signedOut?: boolean;
  /** Nothing happened (the server could not reach what it needed): the change may be sent again. */
  retry?: boolean;
  /** Where the action sent the browser (e.g. back to the list after an edit). */
  redirectTo?: string;
}

/** Marks a request sent again from the outbox; the app answers OUTCOME_HEADER. */
export const OFFLINE_REPLAY_HEADER = "X-Offline-Replay";
/** The app's account of a replayed change, a URI-encoded ReplayOutcome (JSON). */
export const OUTCOME_HEADER = "X-Replay-Outcome";
/** When a cached copy was saved (ms since the epoch), on responses the worker keeps. */
export const SAVED_AT_HEADER = "X-Saved-At";
/** Marks the worker's own fetch of a page to keep for offline use (it must not take the flash toast). */
export const OFFLINE_SAVE_HEADER = "X-Offline-Save";

/** The body of the worker's 503 answer when the network failed (the page tells it from server errors by this). */
export interface OfflineAnswer {
  offline: {
    /** The change was put in the outbox (or was already waiting there: `duplicate`). */
    queued: boolean;
    duplicate?: boolean;
    label?: string;
    /** A read with no saved copy to fall back on. */
    noCopy?: boolean;
  };
}

export function offlineAnswer(body: unknown): OfflineAnswer["offline"] | null {
  let value = body;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof value !== "object" || value === null || !("offline" in value)) return null;
  const offline = (value as OfflineAnswer).offline;
  return typeof offline === "object" && offline !== null && typeof offline.queued === "boolean" ? offline : null;
}

/** How a screen's documents and data are fetched by the worker (each route declares its own: app/offline/policy.ts). */
export type ScreenPolicy =
  /** Network first; after a short wait (or no network) the last saved copy. */
  | "saved"
  /** Network first and waited for; a saved copy only when there is no network at all (recommendations). */
  | "fresh-first"
  /** Not kept. */
  | "network";

/** The page a single-fetch URL belongs to: `/user-stocks.data?_routes=…` → `/user-stocks`; `/_.data` → `/`. */
export function pageOfDataUrl(url: URL): { pathname: string; search: string } {
  let pathname = url.pathname.replace(/\.data$/, "");
  if (pathname.endsWith("/_")) pathname = pathname.slice(0, -1);
  if (pathname.length > 1 && pathname.endsWith("/")) pathname = pathname.slice(0, -1);
  const params = new URLSearchParams(url.search);
  params.delete("_routes");
  params.delete("index");
  const search = params.toString();
  return { pathname: pathname || "/", search: search ? `?${search}` : "" };
}

export function isDataUrl(url: URL): boolean {
  return url.pathname.endsWith(".data");
}

/** The route ids a single-fetch GET asks for (`_routes`), or null for all of them. */
export function routesOf(url: URL): Set<string> | null {
  const routes = url.searchParams.get("_routes");
  return routes ? new Set(routes.split(",").filter(Boolean)) : null;
}

/**
 * A saved answer serves a read when it holds every route the read asks for, for the same page
 * (`ignoreSearch`: the same path with any search, a last resort offline).
 */
export function answers(saved: URL, wanted: URL, { ignoreSearch = false } = {}): boolean {
  const a = pageOfDataUrl(saved);
  const b = pageOfDataUrl(wanted);
  if (a.pathname !== b.pathname || (!ignoreSearch && a.search !== b.search)) return false;
  const have = routesOf(saved);
  const need = routesOf(wanted);
  if (have === null) return true;
  if (need === null) return false;
  return [...need].every((id) => have.has(id));
}

/**
 * A list as it will be once its waiting changes are sent: rows deleted offline left out, a new
 * order posted offline applied (rows it does not name keep their place after it).
 */
export function applyQueued<Row extends { id: number }>(
  rows: readonly Row[],
  changes: readonly PendingChange[],
  page: string,
): readonly Row[] {
  let result = rows;
  for (const change of changes) {
    if (change.page !== page) continue;
    const { intent } = change.fields;
    if (intent === "delete") {
      const id = Number(change.fields.id);
      result = result.filter((row) => row.id !== id);
    } else if (intent === "reorder") {
      const order = (change.fields.order ?? "").split(",").map(Number);
      const rank = new Map(order.map((id, index) => [id, index]));
      result = [...result].sort((a, b) => (rank.get(a.id) ?? order.length) - (rank.get(b.id) ?? order.length));
    }
  }
  return result;
}

/** localStorage key of the user's agreement to refresh for new versions (docs/product.md#entities-browser-storage, #states-sw-update). */
export const AGREED_TO_REFRESH_KEY = "hasAgreedToRefresh";

/** Cache names: the build's own files, and the saved screens (user data, cleared at sign-out). */
export const PRECACHE_PREFIX = "precache-";
export const SAVED_PREFIX = "saved-screens-";
