/**
 * When a page's scripts load, as the page and the server both need to say it: what a route's
 * `handle` may ask (read by app/server/scripts-trigger.server.ts when the server writes the page),
 * and the mark of a form that has no path without the scripts (ADR 0061).
 */
export interface RouteHandle {
  /**
   * The page's scripts wait for the visitor's first interaction instead of loading after the first
   * paint, for the addresses this answers true: a page that opens on a dialog, say, wants its
   * scripts at once.
   */
  hydrateOnInteraction?: (url: URL) => boolean;
}

/**
 * The attribute the root sets on `<html>` once the page has hydrated (app/root.tsx); the landing
 * page's loader waits for it to send a held form, and tests and benches wait for it too.
 */
export const HYDRATED_ATTRIBUTE = "data-hydrated";

/**
 * On a page whose scripts wait for an interaction, a form with this attribute is not posted before
 * the page has hydrated: the loader holds its submission and makes it again then
 * (app/server/scripts-after-paint.server.ts). For a form whose post without JavaScript can only
 * answer that JavaScript is needed (Google's popup).
 */
export const NEEDS_SCRIPTS = "data-needs-scripts";
