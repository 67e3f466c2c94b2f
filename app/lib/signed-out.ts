/**
 * Marks a read the server answered without a session (docs/decisions/0032-offline-copies-forgotten-when-no-session.md):
 * the service worker then forgets the saved screens and the outbox, as at sign-out. Shared by the
 * server (app/server/signed-out.server.ts) and the worker (app/offline/sw/screens.ts) only, never the page.
 */
export const SIGNED_OUT_HEADER = "X-Signed-Out";
