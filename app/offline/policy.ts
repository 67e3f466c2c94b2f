import type { RoutePattern } from "#app/lib/href.ts";
import type { ScreenPolicy } from "./protocol.ts";

/**
 * A route's offline policy, declared next to it in `app/routes/<route>.offline.ts` (ADR 0041):
 * how the service worker serves its screen, whether its changes wait in the outbox, and how a
 * waiting change is named. Pure and React-free: the worker bundles every one of these files.
 */
export interface RouteOffline<Intent extends string = string> {
  /** The route's path as app/routes.ts declares it, with a leading slash ("/user-stock/:ticker"; ADR 0100). */
  path: RoutePattern;
  screen: ScreenPolicy;
  /** Its changes (posts) wait in the outbox when the network fails; absent: they are not kept. */
  queued?: {
    /** Every intent the route's forms post and its action handles (checked by app/routes/offline-intents.test.ts). */
    intents: readonly Intent[];
    /** The change's name in the outbox, from its form fields and the path's parameters. */
    describe(fields: URLSearchParams, params: Readonly<Record<string, string>>): string;
  };
}

/** Declares a route's policy, keeping its intents' literal types. */
export function routeOffline<const Intent extends string>(policy: RouteOffline<Intent>): RouteOffline<Intent> {
  return policy;
}

/** The parameters of `pathname` under a route path ("/user-stock/:ticker"), or null when it does not match. */
export function matchRoutePath(path: string, pathname: string): Record<string, string> | null {
  const want = path.split("/").filter(Boolean);
  const have = pathname.split("/").filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment.startsWith(":")) params[segment.slice(1)] = decodeURIComponent(have[i]!);
    else if (segment !== have[i]) return null;
  }
  return params;
}

/** A ticker as a change's name shows it: upper case, letters and digits only. */
export function tickerOf(value: string | null | undefined): string {
  return (value ?? "").toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** The names of a stock list's changes ("Delete KO from the watchlist"), for `list` ("the watchlist"). */
export function listChange(list: string) {
  return (fields: URLSearchParams): string => {
    const ticker = tickerOf(fields.get("ticker"));
    const on = fields.get("value") === "true";
    switch (fields.get("intent")) {
      case "toggle":
        return `Recommendations ${on ? "on" : "off"}${ticker ? ` for ${ticker}` : ""}`;
      case "alert":
        return `Price alerts ${on ? "on" : "off"}${ticker ? ` for ${ticker}` : ""}`;
      case "delete":
        return `Delete ${ticker || "a stock"} from ${list}`;
      case "watchlist":
        return `Add ${ticker || "a stock"} to your watchlist`;
      case "reorder":
      case "move":
        return `New order of ${list}`;
      default:
        return `A change to ${list}`;
    }
  };
}
