import { PRECACHE_PREFIX, SAVED_PREFIX } from "#app/offline/protocol.ts";
import { sw } from "./scope.ts";

/**
 * The app shell: the build's scripts, styles, icons and manifest (vite.config.ts `globPatterns`),
 * injected by vite-plugin-pwa at `self.__WB_MANIFEST`, kept in a cache of this build's own and
 * answered from it first (their names change with their content).
 */
const entries = (self as unknown as { __WB_MANIFEST: Array<{ url: string; revision: string | null } | string> })
  .__WB_MANIFEST;

/** This build's name: a hash of its file list (a changed file changes it). */
export const BUILD = hash(JSON.stringify(entries));
const PRECACHE = `${PRECACHE_PREFIX}${BUILD}`;
/** Saved screens of this build: a page from another build may ask for scripts this one lacks. */
export const SAVED = `${SAVED_PREFIX}${BUILD}`;

const urls = entries.map((entry) => new URL(typeof entry === "string" ? entry : entry.url, sw.location.origin).href);
const precached = new Set(urls);

export async function precache(): Promise<void> {
  const cache = await caches.open(PRECACHE);
  // Straight from the server: a file's copy in the HTTP cache may be from the previous build.
  await cache.addAll(urls.map((url) => new Request(url, { cache: "reload" })));
}

export function isPrecached(url: URL): boolean {
  return precached.has(url.origin + url.pathname);
}

export async function fromPrecache(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const kept = await caches.match(url.origin + url.pathname, { cacheName: PRECACHE });
  return kept ?? fetch(request);
}

/** On activation: earlier builds' files and saved screens go. */
export async function dropOtherBuilds(): Promise<void> {
  const names = await caches.keys();
  await Promise.all(
    names
      .filter(
        (name) =>
          (name.startsWith(PRECACHE_PREFIX) || name.startsWith(SAVED_PREFIX)) && name !== PRECACHE && name !== SAVED,
      )
      .map((name) => caches.delete(name)),
  );
}

/** djb2, enough to tell builds apart. */
function hash(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = ((h << 5) + h + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}
