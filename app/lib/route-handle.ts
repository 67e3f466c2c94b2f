/**
 * What a route's `handle` export may say about its page; the server reads it when it writes the
 * page (app/server/scripts-trigger.server.ts).
 */
export interface RouteHandle {
  /**
   * The page's scripts wait for the visitor's first interaction instead of loading after the first
   * paint (ADR 0061), for the addresses this answers true: a page that opens on a dialog, say, wants
   * its scripts at once.
   */
  hydrateOnInteraction?: (url: URL) => boolean;
}
