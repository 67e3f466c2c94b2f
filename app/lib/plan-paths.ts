import type { Href, HrefWithSearch } from "#app/lib/href.ts";

/**
 * The paths the Plan screen's links use (ADR 0081), checked against the route table at compile time
 * (ADR 0100). Calling href() in the browser bundles ~340 B (gzip) of React Router on every page,
 * which took /uip-stocks past its 135 kB first-load cap; these cost nothing at run time.
 */
export const PLAN_PATH = "/plan" satisfies Href;
export const PROFILE_CAPITAL_PATH = "/profile#capital" satisfies HrefWithSearch;
export const PORTFOLIO_PATH = "/portfolio" satisfies Href;
export const recommendationPath = (id: number) => `/recommendation/${id}` satisfies Href;
