import { describe, expect, it } from "vitest";
import { messages } from "#app/lib/messages.ts";
import * as addTrade from "#app/routes/add-trade/route.tsx";
import * as addUipStock from "#app/routes/add-uip-stock/route.tsx";
import * as addUserStock from "#app/routes/add-user-stock/route.tsx";
import * as insightsList from "#app/routes/insights-list/route.tsx";
import * as login from "#app/routes/login/route.tsx";
import * as portfolio from "#app/routes/portfolio/route.tsx";
import * as roll from "#app/routes/portfolio.roll.$tradeId/route.tsx";
import * as profile from "#app/routes/profile/route.tsx";
import * as resetPassword from "#app/routes/reset-password/route.tsx";
import * as uipStock from "#app/routes/uip-stock.$ticker/route.tsx";
import * as uipStocks from "#app/routes/uip-stocks/route.tsx";
import * as userStock from "#app/routes/user-stock.$ticker/route.tsx";
import * as userStocks from "#app/routes/user-stocks/route.tsx";
import { routeHarnessForFile, runAction, signedOut, type Outcome } from "../../support/app-routes.ts";

/**
 * Posts that are not a form, to every page action that reads one (issue 40, findings 3 and 6):
 * a 4xx with the page's sentence, never a 500 or a post left unanswered.
 */
const app = routeHarnessForFile();

type Action = (args: never) => unknown;
interface Page {
  name: string;
  path: string;
  route: { action: Action };
  params?: Record<string, string>;
  /** Who posts: a page an admin alone may use is posted to as the admin. */
  as: "nobody" | "trader" | "admin";
}
const pages: Page[] = [
  { name: "/login", path: "/login", route: login, as: "nobody" },
  { name: "/reset-password", path: "/reset-password?token=x", route: resetPassword, as: "nobody" },
  { name: "/add-trade", path: "/add-trade?form=options", route: addTrade, as: "trader" },
  { name: "/portfolio", path: "/portfolio", route: portfolio, as: "trader" },
  {
    name: "/portfolio/roll/:tradeId",
    path: "/portfolio/roll/1",
    route: roll,
    params: { tradeId: "1" },
    as: "trader",
  },
  { name: "/profile", path: "/profile", route: profile, as: "trader" },
  { name: "/insights", path: "/insights", route: insightsList, as: "trader" },
  { name: "/user-stocks", path: "/user-stocks", route: userStocks, as: "trader" },
  { name: "/uip-stocks", path: "/uip-stocks", route: uipStocks, as: "trader" },
  { name: "/add-user-stock", path: "/add-user-stock", route: addUserStock, as: "trader" },
  { name: "/add-uip-stock", path: "/add-uip-stock", route: addUipStock, as: "admin" },
  {
    name: "/user-stock/:ticker",
    path: "/user-stock/AAPL",
    route: userStock,
    params: { ticker: "AAPL" },
    as: "trader",
  },
  { name: "/uip-stock/:ticker", path: "/uip-stock/AAPL", route: uipStock, params: { ticker: "AAPL" }, as: "trader" },
];

const bodies: { name: string; type?: string; body: BodyInit; status: number; text: string }[] = [
  {
    name: "text/plain",
    type: "text/plain",
    body: "intent=login&username=demo",
    status: 415,
    text: messages.formNotAForm,
  },
  { name: "JSON", type: "application/json", body: '{"username":"demo"}', status: 415, text: messages.formNotAForm },
  {
    name: "binary",
    type: "application/octet-stream",
    body: new Uint8Array([0, 255, 1, 254]),
    status: 415,
    text: messages.formNotAForm,
  },
  { name: "no type, a body", body: "\u0000\u0001garbage", status: 415, text: messages.formNotAForm },
  {
    name: "multipart without a boundary",
    type: "multipart/form-data",
    body: "--x\r\n\r\n",
    status: 400,
    text: messages.formUnreadable,
  },
];

async function postTo(page: Page, body: BodyInit | null, type: string | undefined): Promise<Outcome> {
  const headers = new Headers(type ? { "content-type": type } : {});
  const request = new Request(new URL(page.path, "http://app.test"), { method: "POST", headers, body });
  // Types only: each route's action takes its own params, given here as the route says.
  const run = runAction as unknown as (
    route: Page["route"],
    context: unknown,
    request: Request,
    params?: object,
  ) => Promise<Outcome>;
  return run(page.route, page.as === "nobody" ? signedOut() : app[page.as], request, page.params);
}

describe.each(pages)("a post that is not a form to $name", (page) => {
  it.each(bodies)("$name answers $status with the page's sentence", async ({ body, type, status, text }) => {
    const answer = await postTo(page, body, type);
    expect(answer).toMatchObject({ status, data: text });
  });
});

describe("an empty post (no type, no body)", () => {
  it("is an empty form: the sign-in form names its empty fields", async () => {
    // A Request given "" would call it text/plain: no body at all is what such a post carries.
    const answer = await postTo(pages[0]!, null, undefined);
    expect(answer.status).toBe(400);
    const reply = answer.data as { intent: string; result: { error: Record<string, string[]> } };
    expect(Object.keys(reply.result.error).sort()).toEqual(["password", "username"]);
  });
});
