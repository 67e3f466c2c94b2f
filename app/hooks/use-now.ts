import { startTransition, useEffect, useState } from "react";

/** How often the age texts move on. */
const TICK_MS = 30_000;

/**
 * One clock for every age text on the page: one timer, and one render for all the texts it moves
 * on (React batches their updates). A component that mounts gets the browser's time soon after.
 */
const clock = {
  listeners: new Set<(now: number) => void>(),
  soon: null as ReturnType<typeof setTimeout> | null,
  every: null as ReturnType<typeof setInterval> | null,
};

function tick() {
  const now = Date.now();
  startTransition(() => {
    for (const listener of clock.listeners) listener(now);
  });
}

function subscribe(listener: (now: number) => void): () => void {
  clock.listeners.add(listener);
  clock.soon ??= setTimeout(() => {
    clock.soon = null;
    tick();
  }, 0);
  clock.every ??= setInterval(tick, TICK_MS);
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size > 0) return;
    if (clock.soon) clearTimeout(clock.soon);
    if (clock.every) clearInterval(clock.every);
    clock.soon = clock.every = null;
  };
}

/**
 * "Now" for age texts ("5 minutes ago"): the server's clock in the first render (so the
 * browser's hydration matches the HTML), then the browser's, moved on every 30 s as a transition
 * (in slices, never one long task). Read it in the smallest component that shows the age
 * (app/components/age-text.tsx), so a tick renders the texts again and not the rows around them.
 */
export function useNow(serverNow: number): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => subscribe(setNow), []);
  return now;
}
