import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { Reconciliation } from "#contract/reconcile.ts";
import { userCall } from "#app/server/auth.server.ts";
import { callProvider } from "#app/server/provider.server.ts";
import * as reconcileRoute from "#app/routes/reconcile/route.tsx";
import { RECONCILE_INTENT } from "#app/routes/reconcile/intents.ts";
import { RECONCILE_TEXT } from "#app/routes/reconcile/server.ts";
import { cashText } from "#app/routes/reconcile/components/describe.ts";
import { callAction, callLoader, routeHarnessForFile, signedOut } from "../../support/app-routes.ts";

/** /reconcile through its route module (ADR 0094): the journal beside an imported statement's positions. */
const app = routeHarnessForFile();
let counter = 0;

async function freshTrader(): Promise<RouterContextProvider> {
  const name = `reconroute${++counter}`;
  await callProvider(calls.register, {
    body: {
      email: `${name}@example.test`,
      username: name,
      password: "Passw0rd-recon",
      first_name: "R",
      last_name: "R",
    },
  });
  return app.signIn(name, "Passw0rd-recon");
}

/**
 * The statement's trades leave 100 KO and 10 MSFT shares; its positions list the KO shares, a KO
 * short call the trades never sold, and no MSFT: two differences, one with its price, one without.
 */
const statement = readFileSync(
  new URL("../../../provider/journal/brokers/fixtures/ibkr-open-positions.csv", import.meta.url),
  "utf8",
).replace(/^Open Positions,Data,Summary,Stocks,USD,MSFT.*\n/m, "");
const AS_OF = "2026-04-01T03:59:59.000Z";
const CALL = "KO|call|62.5|2026-04-17";
const fixOf = (key: string, action: string, quantity: number, price?: string) => ({
  intent: RECONCILE_INTENT.fix,
  source: "ibkr",
  as_of: AS_OF,
  key,
  action,
  quantity: String(quantity),
  ...(price === undefined ? {} : { price }),
});

let trader: RouterContextProvider;
beforeAll(async () => {
  trader = await freshTrader();
});

describe("/reconcile", () => {
  it("sends a signed-out visit and post to sign in; without positions it says none came yet", async () => {
    expect(await callLoader(reconcileRoute, signedOut(), "/reconcile")).toMatchObject({ location: "/login" });
    expect(await callAction(reconcileRoute, signedOut(), "/reconcile", fixOf(CALL, "add", 1))).toMatchObject({
      status: 302,
      location: "/login",
    });
    const empty = await callLoader(reconcileRoute, await freshTrader(), "/reconcile");
    expect(empty).toMatchObject({ status: 200, data: { snapshot: null, differences: [] } });
    // A source the trader has none of (an old link): the latest instead.
    expect(await callLoader(reconcileRoute, trader, "/reconcile?source=tradier")).toMatchObject({
      location: "/reconcile",
    });
  });

  it("shows the statement's differences; each fix is recorded once and the journal then matches", async () => {
    await userCall(trader, calls.importTrades, { body: { broker: "ibkr", csv: statement } });
    const page = await callLoader(reconcileRoute, trader, "/reconcile");
    const book = page.data as Reconciliation;
    expect(book.snapshot).toEqual({ source: "ibkr", as_of: AS_OF });
    expect(book.differences.map((d) => [d.key, d.issue])).toEqual([
      ["MSFT|shares", "stale"],
      [CALL, "missing"],
    ]);

    const added = await callAction(reconcileRoute, trader, "/reconcile", fixOf(CALL, "add", 1));
    expect(added).toMatchObject({
      status: 302,
      location: "/reconcile?source=ibkr",
      toast: { type: "success", text: RECONCILE_TEXT.recorded },
    });
    // The same tap again, from the page as it was: nothing more is recorded.
    const again = await callAction(reconcileRoute, trader, "/reconcile", fixOf(CALL, "add", 1));
    expect(again).toMatchObject({
      status: 409,
      data: {
        fix: {
          key: CALL,
          error: "This difference is no longer there as shown: nothing was recorded. Look again.",
        },
      },
    });

    const noPrice = await callAction(reconcileRoute, trader, "/reconcile", fixOf("MSFT|shares", "close", 10, ""));
    expect(noPrice).toMatchObject({
      status: 422,
      data: { fix: { key: "MSFT|shares", error: "Enter the price a share" } },
    });
    const notANumber = await callAction(reconcileRoute, trader, "/reconcile", fixOf("MSFT|shares", "close", 10, "4o1"));
    expect(notANumber).toMatchObject({
      status: 400,
      data: { fix: { key: "MSFT|shares", error: RECONCILE_TEXT.priceNotANumber, typed: "4o1" } },
    });
    const sold = await callAction(reconcileRoute, trader, "/reconcile", fixOf("MSFT|shares", "close", 10, "401"));
    expect(sold).toMatchObject({ status: 302, toast: { text: RECONCILE_TEXT.recorded } });

    const after = await callLoader(reconcileRoute, trader, "/reconcile");
    expect((after.data as Reconciliation).differences).toEqual([]);
    const journal = await userCall(trader, calls.listTrades);
    const fixes = journal.filter((t) => t.notes?.includes("by the reconciliation")).map((t) => [t.kind, t.price]);
    expect(fixes.sort()).toEqual([
      ["sell_to_open", 0.85],
      ["stock_sell", 401],
    ]);
  });

  it("sets the journal's put collateral beside the statement's cash, and says how far it falls short", async () => {
    const trader = await freshTrader();
    const csv = [
      "Statement,Header,Field Name,Field Value",
      'Statement,Data,Period,"March 1, 2026 - March 31, 2026"',
      "Trades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,T. Price,C. Price,Proceeds,Comm/Fee,Basis,Realized P/L,MTM P/L,Code",
      'Trades,Data,Order,Equity and Index Options,USD,KO 17APR26 60 P,"2026-03-02, 10:00:00",-1,1,1,100,-1,-99,0,0,O',
      "Open Positions,Header,DataDiscriminator,Asset Category,Currency,Symbol,Quantity,Mult,Cost Price,Cost Basis,Close Price,Value,Unrealized P/L,Code",
      "Open Positions,Data,Summary,Equity and Index Options,USD,KO 17APR26 60 P,-1,100,0.99,-99,0.8,-80,19,",
      "Cash Report,Header,Currency Summary,Currency,Total,Securities,Futures,Month to Date,Year to Date,",
      'Cash Report,Data,Ending Cash,Base Currency Summary,"4,500",4500,0,,,',
      "",
    ].join("\n");
    await userCall(trader, calls.importTrades, { body: { broker: "ibkr", csv } });
    const page = await callLoader(reconcileRoute, trader, "/reconcile");
    const book = page.data as Reconciliation;
    expect(book.differences).toEqual([]);
    // One KO 60 put: 60 × 100 × 1 = $6,000 committed against $4,500 of cash.
    expect(book.cash).toEqual({ committed: 6000, broker: 4500, short: 1500 });
    expect(cashText(book.cash, "Interactive Brokers")).toEqual({
      covered: false,
      text: "$6,000.00 committed, Interactive Brokers holds $4,500.00 cash: $1,500.00 short.",
    });
  });

  it("a post without a known intent changes nothing", async () => {
    const refused = await callAction(reconcileRoute, trader, "/reconcile", { intent: "nope" });
    expect(refused.status).toBe(400);
  });
});
