import { useSyncExternalStore } from "react";
import type { PendingChange } from "./protocol.ts";

/**
 * The changes waiting in the service worker's outbox, as the page last heard
 * (offline-status.tsx keeps it up to date), for screens that show them as made.
 */
const NONE: readonly PendingChange[] = [];
// An empty outbox is always NONE, the server's snapshot too: another empty array would make React
// render every row's toggle again, synchronously, right after hydration and on every empty report.
let changes: readonly PendingChange[] = NONE;
const listeners = new Set<() => void>();

export function setPendingChanges(next: readonly PendingChange[]): void {
  changes = next.length ? next : NONE;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePendingChanges(): readonly PendingChange[] {
  return useSyncExternalStore(
    subscribe,
    () => changes,
    () => NONE,
  );
}
