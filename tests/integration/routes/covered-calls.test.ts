import { beforeAll, describe, expect, it } from "vitest";
import type { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { CoveredCalls } from "#contract/covered-calls.ts";
import { messages } from "#app/lib/messages.ts";
import { userCall } from "#app/server/auth.server.ts";
import { callProvider } from "#app/server/provider.server.ts";
import * as route from "#app/routes/covered-calls/route.tsx";
import { COVERED_CALLS_INTENT } from "#app/routes/covered-calls/intents.ts";
import { callAction, callLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/**
 * /insights/calls (the covered-call screen): its loader and its one form (save the call filters),
 * through the route module against the embedded provider and its simulated market.
 */
const app = routeHarnessForFile();
let writer: RouterContextProvider;
let empty: RouterContextProvider;

async function newTrader(name: string) {
  await callProvider(calls.register, {
    body: { email: `${name}@example.test`, username: name, password: "Passw0rd-call", first_name: "C", last_name: "W" },
  });
  return app.signIn(name, "Passw0rd-call");
}

beforeAll(async () => {
  writer = await newTrader("callwriter");
  empty = await newTrader("noshares");
  // 300 KO bought at $60 (fees $1): the adjusted basis is (18,000 + 1) ÷ 300 = $60.0033.
  await userCall(writer, calls.addTrade, {
    body: {
      kind: "stock_buy",
      ticker: "KO",
      quantity: 300,
      price: 60,
      fees: 1,
      traded_at: new Date(Date.now() - 3_600_000).toISOString(),
    },
  });
});

interface Page {
  screen: CoveredCalls | null;
  error: string | null;
  filters: Record<string, string>;
  filtersError: string | null;
}
const page = async (context: RouterContextProvider, url = "/insights/calls") => {
  const answer = await callLoader(route, context, url);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("cache-control")).toBe("no-store");
  return answer.data as Page;
};

/** The whole form, as it is posted: every field is sent. */
const form = {
  at_or_above_basis: "1",
  at_or_above_base_value: "0",
  skip_earnings: "0",
  delta_min: "0.05",
  delta_max: "0.5",
  dte_min: "1",
  dte_max: "90",
  min_bid: "0.05",
  min_open_interest: "0",
  max_spread: "50",
};

describe("/insights/calls", () => {
  it("lists the trader's holding with its basis and calls at or above it", async () => {
    const { screen, error } = await page(writer, `/insights/calls?${new URLSearchParams(form)}`);
    expect(error).toBeNull();
    const ko = screen!.holdings.find((h) => h.ticker === "KO")!;
    expect(ko).toMatchObject({ shares: 300, adjusted_basis: 60, contracts_available: 3 });
    expect(ko.calls.length).toBeGreaterThan(0);
    expect(ko.calls.every((c) => c.strike >= 60.0033)).toBe(true);
  });

  it("says so when the trader holds no shares", async () => {
    expect((await page(empty)).screen!.holdings).toEqual([]);
  });

  it("shows the calls through the saved filters, and why, when the address holds a bad one", async () => {
    const { screen, filtersError, filters } = await page(writer, "/insights/calls?dte_min=50&dte_max=10");
    expect(filtersError).toBe("'Days to expiry from' must not be above 'Days to expiry to'.");
    expect(screen).not.toBeNull();
    // The form shows the saved values, not the refused ones.
    expect(filters.dte_min).toBe(String(screen!.filters.dte_min));
  });

  it("sends a signed-out visitor to sign in", async () => {
    const answer = await callLoader(route, signedOut(), "/insights/calls");
    expect(answer.status).toBe(302);
    expect(answer.location).toMatch(/^\/login/);
  });
});

describe("/insights/calls save filters", () => {
  it("refuses a bad value with the form's sentence, saves nothing, and keeps what was typed in the address", async () => {
    const before = (await page(empty)).screen!.filters;
    const answer = await callAction(route, empty, "/insights/calls", {
      intent: COVERED_CALLS_INTENT.saveFilters,
      ...form,
      max_spread: "80",
    });
    expect(answer.status).toBe(302);
    expect(answer.toast).toEqual({
      type: "error",
      text: "'Maximum spread (% of mid)' must be from 1% to 50% of the mid.",
    });
    const back = new URL(answer.location!, "http://app.test");
    expect(back.pathname).toBe("/insights/calls");
    expect(back.searchParams.get("max_spread")).toBe("80");
    expect((await page(empty)).screen!.filters).toEqual(before);
  });

  it("saves the trader's defaults, which the screen then shows on its form", async () => {
    const answer = await callAction(route, empty, "/insights/calls", {
      intent: COVERED_CALLS_INTENT.saveFilters,
      ...form,
    });
    expect(answer.toast).toEqual({ type: "success", text: messages.callFiltersSaved });
    const { filters, screen } = await page(empty);
    expect(filters).toEqual(form);
    expect(screen!.filters).toMatchObject({ skip_earnings: false, max_spread: 0.5, dte_max: 90 });
  });

  it("an unticked box counts: the hidden 0 before the 1, the last one wins", async () => {
    await callAction(route, empty, "/insights/calls", {
      intent: COVERED_CALLS_INTENT.saveFilters,
      ...form,
      at_or_above_basis: ["0"],
    });
    expect((await page(empty)).screen!.filters.at_or_above_basis).toBe(false);
  });
});
