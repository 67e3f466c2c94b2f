import type { ScreenPolicy } from "#app/offline/protocol.ts";
import { matchRoutePath, type RouteOffline } from "#app/offline/policy.ts";

/**
 * Every route's offline policy, gathered from the `*.offline.ts` files next to the routes at build
 * time (Vite's import.meta.glob; ADR 0041): the worker learns a new route's policy without a table
 * to keep in step, and none of the route modules (React) comes with it.
 */
const POLICIES: readonly RouteOffline[] = Object.values(
  import.meta.glob<RouteOffline>("../../routes/**/*.offline.ts", { eager: true, import: "offline" }),
);

function policyOf(pathname: string): { policy: RouteOffline; params: Record<string, string> } | null {
  for (const policy of POLICIES) {
    const params = matchRoutePath(policy.path, pathname);
    if (params) return { policy, params };
  }
  return null;
}

/** How the worker fetches a screen's documents and data (routes without a policy: network only). */
export function screenPolicy(pathname: string): ScreenPolicy {
  return policyOf(pathname)?.policy.screen ?? "network";
}

/** Posts to this page wait in the outbox when the network fails. */
export function isQueuedChange(pathname: string): boolean {
  return Boolean(policyOf(pathname)?.policy.queued);
}

/** A change's name in the outbox, from its page and form fields: "Changes to AAPL", "Delete KO from the watchlist". */
export function describeChange(pathname: string, fields: URLSearchParams): string {
  const found = policyOf(pathname);
  return found?.policy.queued?.describe(fields, found.params) ?? "A change";
}
