import type { href } from "react-router";

/**
 * The paths the Plan screen's links use (ADR 0081), checked against the route table by href()'s
 * own type at compile time. Calling href() in the browser bundles ~340 B (gzip) of React Router on
 * every page, which took /uip-stocks past its 135 kB first-load cap; these cost nothing at run time.
 */
type RoutePath = Parameters<typeof href>[0];
const checked = <P extends RoutePath>(path: P): P => path;

export const PLAN_PATH = checked("/plan");
export const PROFILE_CAPITAL_PATH = `${checked("/profile")}#capital` as const;
export const PORTFOLIO_PATH = checked("/portfolio");
const RECOMMENDATION_PATH = checked("/recommendation/:id");
export const recommendationPath = (id: number) => RECOMMENDATION_PATH.replace(":id", String(id));
