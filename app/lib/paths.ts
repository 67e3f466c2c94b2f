import type { href } from "react-router";

/**
 * Every page's path, spelled once (docs/decisions/0100-typed-paths-from-the-route-table.md). Each is
 * checked against app/routes.ts by the type of React Router's href(), so renaming a route fails the
 * type check here; calling href() itself would add ~340 B (gzip) to every page's first load, and
 * these cost nothing at run time. Lint refuses a route path written anywhere else in app/.
 */
export type RoutePath = Parameters<typeof href>[0];

export const PATHS = {
  home: "/",
  login: "/login",
  logout: "/logout",
  resetPassword: "/reset-password",
  trackRecord: "/track-record",
  pushDevice: "/resources/push-device",
  addTrade: "/add-trade",
  importTrades: "/import-trades",
  tradesExport: "/resources/trades-export",
  addUserStock: "/add-user-stock",
  userStock: "/user-stock/:ticker",
  addUipStock: "/add-uip-stock",
  uipStock: "/uip-stock/:ticker",
  stockHistory: "/resources/stock-history/:ticker",
  companyName: "/resources/company-name",
  aiStockAnalysis: "/resources/ai/stock-analysis",
  aiSummarize: "/resources/ai/summarize",
  userStocks: "/user-stocks",
  uipStocks: "/uip-stocks",
  profile: "/profile",
  portfolio: "/portfolio",
  portfolioRoll: "/portfolio/roll/:tradeId",
  coveredCalls: "/insights/calls",
  plan: "/plan",
  insights: "/insights",
  recommendation: "/recommendation/:id",
} as const satisfies Record<string, RoutePath>;

// And the other way: a route added to app/routes.ts without a line above fails here.
type Missing = Exclude<RoutePath, (typeof PATHS)[keyof typeof PATHS]>;
const everyRoute: [Missing] extends [never] ? true : Missing = true;
void everyRoute;

type ParamsOf<P extends RoutePath> = Parameters<typeof href<P>> extends [unknown, ...infer Rest] ? Rest : never;

/** A path with its parameters filled in: pathTo(PATHS.userStock, { ticker: "KO" }) → "/user-stock/KO". */
export function pathTo<P extends RoutePath>(pattern: P, ...[params]: ParamsOf<P>): string {
  const values = (params ?? {}) as Record<string, string | number | undefined>;
  return pattern.replace(/:(\w+)\??/g, (_, name: string) => encodeURIComponent(String(values[name] ?? "")));
}
