/**
 * The offline module's face for the page (docs/decisions/0099-offline-as-one-module.md): the
 * status bar and the root's client middleware (app/root.tsx), and the hooks a screen uses to show
 * its waiting changes as made.
 */
export { OfflineStatus } from "./offline-status.tsx";
export { offlineClientMiddleware } from "./client-middleware.ts";
export { usePendingChanges } from "./outbox-store.ts";
export { useAsQueued } from "./use-as-queued.ts";
