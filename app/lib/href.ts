import type { href } from "react-router";

/**
 * Typed URLs with no code in the browser (docs/decisions/0100-typed-urls-checked-by-satisfies.md):
 * a route path is written `"/plan" satisfies Href` or `` `/user-stock/${ticker}` satisfies Href ``,
 * so the literal stays a literal in the bundle and renaming a route in app/routes.ts fails the type
 * check wherever the old path is written. This module holds types only: `import type` erases it.
 */

/** A route's pattern as app/routes.ts declares it, from React Router's typegen: "/user-stock/:ticker". */
export type RoutePattern = Parameters<typeof href>[0];

/** A pattern with each `:param` (optional or not) or `*` splat as any text: "/user-stock/${string}". */
type Filled<P extends string> = P extends `${infer Head}:${string}/${infer Rest}`
  ? `${Head}${string}/${Filled<Rest>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P extends `${infer Head}*`
      ? `${Head}${string}`
      : P;

/** A path to a page or resource of the route table, parameters filled in: "/user-stock/KO". */
export type Href = Filled<RoutePattern>;

/** The same with a query or a fragment: "/portfolio?period=all". */
export type HrefWithSearch = Href | `${Href}?${string}` | `${Href}#${string}`;
