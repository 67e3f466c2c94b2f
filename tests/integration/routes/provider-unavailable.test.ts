import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouterContextProvider } from "react-router";
import { messages } from "#app/lib/messages.ts";
import * as addTrade from "#app/routes/add-trade/route.tsx";
import * as addUipStock from "#app/routes/add-uip-stock/route.tsx";
import * as addUserStock from "#app/routes/add-user-stock/route.tsx";
import * as insights from "#app/routes/insights/route.tsx";
import * as portfolio from "#app/routes/portfolio/route.tsx";
import * as profile from "#app/routes/profile/route.tsx";
import * as recommendation from "#app/routes/recommendation.$id/route.tsx";
import * as roll from "#app/routes/portfolio.roll.$tradeId/route.tsx";
import * as uipStock from "#app/routes/uip-stock.$ticker/route.tsx";
import * as uipStocks from "#app/routes/uip-stocks/route.tsx";
import * as userStock from "#app/routes/user-stock.$ticker/route.tsx";
import * as userStocks from "#app/routes/user-stocks/route.tsx";
import { get, runLoader, startRouteHarness, type Outcome, type RouteHarness } from "../../support/app-routes.ts";

/**
 * Every signed-in page while the provider cannot answer (its process restarting; issue 40 finding 9,
 * where a database fault's 503 reached /portfolio and came out as a 500): each page answers, with
 * its own failure text or 503 and the unavailable sentence, never a 500.
 */
let harness: RouteHarness;
let trader: RouterContextProvider;
let admin: RouterContextProvider;
beforeAll(async () => {
  harness = await startRouteHarness();
  trader = await harness.signIn("demo", "demo1234");
  admin = await harness.signIn("admin", "admin1234");
  // The provider goes away: every call the pages make now fails to connect.
  harness.provider.server.closeAllConnections();
  await new Promise<void>((resolve) => harness.provider.server.close(() => resolve()));
});
afterAll(() => harness?.provider.provider.close());

type Loader = { loader: (args: never) => unknown };
const pages: [string, Loader, string, object | undefined, "trader" | "admin"][] = [
  ["/portfolio", portfolio, "/portfolio", undefined, "trader"],
  ["/portfolio/roll/:tradeId", roll, "/portfolio/roll/1", { tradeId: "1" }, "trader"],
  ["/add-trade", addTrade, "/add-trade", undefined, "trader"],
  ["/insights", insights, "/insights", undefined, "trader"],
  ["/recommendation/:id", recommendation, "/recommendation/1", { id: "1" }, "trader"],
  ["/profile", profile, "/profile", undefined, "trader"],
  ["/user-stocks", userStocks, "/user-stocks", undefined, "trader"],
  ["/user-stock/:ticker", userStock, "/user-stock/AAPL", { ticker: "AAPL" }, "trader"],
  ["/add-user-stock", addUserStock, "/add-user-stock", undefined, "trader"],
  ["/uip-stocks", uipStocks, "/uip-stocks", undefined, "admin"],
  ["/uip-stock/:ticker", uipStock, "/uip-stock/AAPL", { ticker: "AAPL" }, "admin"],
  ["/add-uip-stock", addUipStock, "/add-uip-stock", undefined, "admin"],
];

describe("pages while the provider is unavailable", () => {
  it.each(pages)("%s answers with its failure text or 503, not a 500", async (_name, route, url, params, who) => {
    const run = runLoader as unknown as (r: Loader, c: unknown, q: Request, p?: object) => Promise<Outcome>;
    const answer = await run(route, who === "trader" ? trader : admin, get(url), params);
    // Served with the page's own failure text (any status under 500), or 503: never a 500 or 502.
    if (answer.status >= 500) expect(answer.status).toBe(503);
    // A page without a failure text of its own says the service is unavailable.
    if (answer.status === 503 && typeof answer.data === "string") expect(answer.data).toBe(messages.serviceUnavailable);
  });
});
