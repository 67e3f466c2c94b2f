import { useSyncExternalStore } from "react";
import type { PendingChange } from "./offline.ts";

/**
 * The changes waiting in the service worker's outbox, as the page last heard
 * (components/offline-status.tsx keeps it up to date), for screens that show them as made.
 */
let changes: readonly PendingChange[] = [];
const listeners = new Set<() => void>();
const NONE: readonly PendingChange[] = [];

export function setPendingChanges(next: readonly PendingChange[]): void {
  changes = next;
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
