import { beforeAll, describe, expect, it } from "vitest";
import type { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { Journal, Trade } from "#contract/entities.ts";
import type { RollCandidates } from "#contract/rolls.ts";
import { ROLL_INTENTS, type RollIntent } from "#app/lib/roll-form.ts";
import { recordRollHref, ROLL_TEXT, rollHref } from "#app/lib/roll-link.ts";
import { localDateTime } from "#app/lib/trade-fields.ts";
import { userCall } from "#app/server/auth.server.ts";
import * as portfolio from "#app/routes/portfolio/route.tsx";
import * as route from "#app/routes/portfolio.roll.$tradeId/route.tsx";
import { callAction, callLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/**
 * /portfolio/roll/:tradeId (roll candidates of an open short put, and "Record this roll"), through
 * the route module against the embedded provider and its simulated market.
 */
const app = routeHarnessForFile();
/** The trader's open short put: 2 AAPL contracts at a listed strike and expiry. */
let sold: Trade;
/** A later listed expiry and a strike at or below the sold one, to roll into. */
let into: { strike: number; expiry: string; bid: number };

const [RECORD_ROLL] = ROLL_INTENTS satisfies readonly RollIntent[];
const CONTRACTS = 2;

async function sellPut(context: RouterContextProvider, strike: number, expiry: string, ticker = "AAPL") {
  return userCall(context, calls.addTrade, {
    body: {
      kind: "sell_to_open",
      ticker,
      option_type: "put",
      strike,
      expiry,
      quantity: CONTRACTS,
      price: 2,
      fees: 1.3,
      traded_at: new Date(Date.now() - 3_600_000).toISOString(),
    },
  });
}

beforeAll(async () => {
  const chain = await app.provider.provider.context.market.optionChain("AAPL");
  const listed = (expiration: (typeof chain.expirations)[number]) =>
    expiration.options.filter((o) => o.type === "put" && o.ask > 0 && o.bid > 0);
  // Clear of today's expiry, which may already count as expired once the market has closed.
  const soonest = new Date(Date.now() + 3 * 24 * 3_600_000).toISOString().slice(0, 10);
  const [first, , later] = chain.expirations.filter((e) => e.expiration > soonest && listed(e).length > 0);
  const put = listed(first!).reduce((a, b) =>
    Math.abs(a.strike - chain.spot) <= Math.abs(b.strike - chain.spot) ? a : b,
  );
  sold = await sellPut(app.trader, put.strike, first!.expiration);
  const next = listed(later!).find((o) => o.strike <= put.strike)!;
  into = { strike: next.strike, expiry: later!.expiration, bid: next.bid };
});

interface RollPage {
  tradeId: number;
  rolls: RollCandidates | null;
  error: string | null;
  form: Record<string, string> | null;
}
const journal = async () =>
  ((await callLoader(portfolio, app.trader, "/portfolio?period=all")).data as { journal: Journal }).journal;

/** The kept form the page shows again: its values and its errors by field ("" for the form's own). */
const kept = (data: unknown) =>
  (data as { result: { initialValue: Record<string, string>; error: Record<string, string[]> | null } }).result;

/** The roll form as posted, 2 contracts into `into`, with the given changes. */
const rollForm = (changes: Record<string, string> = {}) => ({
  intent: RECORD_ROLL,
  contracts: String(CONTRACTS),
  closePrice: "3.10",
  closeFees: "1.30",
  strike: String(into.strike),
  expiry: into.expiry,
  openPrice: String(into.bid),
  openFees: "1.30",
  tradedAt: localDateTime(new Date(Date.now() - 60_000)),
  ...changes,
});
const params = (id: number | string) => ({ tradeId: String(id) });

describe("roll candidates loader", () => {
  it("shows the open put's figures and its candidates, never kept in a cache", async () => {
    const page = await callLoader(route, app.trader, rollHref(sold.id), params(sold.id));
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const loaded = page.data as RollPage;
    expect(loaded).toMatchObject({ tradeId: sold.id, error: null, form: null });
    expect(loaded.rolls?.position).toMatchObject({
      trade_id: sold.id,
      strike: sold.strike,
      expiry: sold.expiry,
      contracts: CONTRACTS,
    });
    for (const candidate of loaded.rolls!.candidates) {
      expect(candidate.strike).toBeLessThanOrEqual(sold.strike!);
      expect(candidate.expiry > sold.expiry!).toBe(true);
    }
  });

  it("opens 'Record this roll' filled in with the candidate at its bid and the open put at its ask", async () => {
    const page = await callLoader(route, app.trader, recordRollHref(sold.id, into), params(sold.id));
    const loaded = page.data as RollPage;
    const fees = String(Math.round(loaded.rolls!.commission * CONTRACTS * 100) / 100);
    expect(loaded.form).toMatchObject({
      contracts: String(CONTRACTS),
      closePrice: String(loaded.rolls!.position.close_ask),
      closeFees: fees,
      strike: String(into.strike),
      expiry: into.expiry,
      openPrice: String(into.bid),
      openFees: fees,
    });
  });

  it("says why for a trade that is not a sold put", async () => {
    const shares = await userCall(app.trader, calls.addTrade, {
      body: {
        kind: "stock_buy",
        ticker: "KO",
        quantity: 10,
        price: 60,
        fees: 0,
        traded_at: new Date(Date.now() - 3_600_000).toISOString(),
      },
    });
    const page = await callLoader(route, app.trader, rollHref(shares.id), params(shares.id));
    expect(page.status).toBe(422);
    expect(page.data).toMatchObject({ tradeId: shares.id, rolls: null, form: null });
    expect((page.data as RollPage).error).toMatch(/not a sell-to-open of a put or call/);
  });

  it("answers 'Trade not found' for another trader's put and for an id that is not one", async () => {
    const theirs = await sellPut(app.admin, sold.strike!, sold.expiry!);
    const other = await callLoader(route, app.trader, rollHref(theirs.id), params(theirs.id));
    expect(other).toMatchObject({ status: 404, data: "Trade not found" });
    expect(await callLoader(route, app.trader, "/portfolio/roll/abc", params("abc"))).toMatchObject({ status: 404 });
  });

  it("sends a signed-out visit and a signed-out post to sign in, recording nothing", async () => {
    const before = (await journal()).rows.length;
    expect(await callLoader(route, signedOut(), rollHref(sold.id), params(sold.id))).toMatchObject({
      status: 302,
      location: "/login",
    });
    const post = await callAction(route, signedOut(), rollHref(sold.id), rollForm(), params(sold.id));
    expect(post).toMatchObject({ status: 302, location: "/login" });
    expect((await journal()).rows).toHaveLength(before);
  });
});

describe("record-roll", () => {
  it("keeps every typed value with the errors of the fields the form refuses", async () => {
    const before = (await journal()).rows.length;
    const answer = await callAction(
      route,
      app.trader,
      recordRollHref(sold.id, into),
      rollForm({ contracts: "two", strike: "" }),
      params(sold.id),
    );
    expect(answer.status).toBe(400);
    const form = kept(answer.data);
    expect(form.initialValue).toMatchObject({ contracts: "two", expiry: into.expiry, closePrice: "3.10" });
    expect(Object.keys(form.error ?? {}).sort()).toEqual(["contracts", "strike"]);
    expect((await journal()).rows).toHaveLength(before);
  });

  it("keeps every typed value with the provider's reason when more contracts are rolled than are open", async () => {
    const before = await journal();
    const answer = await callAction(
      route,
      app.trader,
      recordRollHref(sold.id, into),
      rollForm({ contracts: String(CONTRACTS + 1) }),
      params(sold.id),
    );
    expect(answer.status).toBe(422);
    const form = kept(answer.data);
    expect(form.initialValue).toMatchObject({ contracts: String(CONTRACTS + 1), strike: String(into.strike) });
    expect(form.error?.[""]).toHaveLength(1);
    const after = await journal();
    expect(after.rows).toHaveLength(before.rows.length);
    expect(after.open_options).toEqual(before.open_options);
  });

  it("refuses a post that is not the roll form, recording nothing", async () => {
    const before = (await journal()).rows.length;
    const answer = await callAction(
      route,
      app.trader,
      rollHref(sold.id),
      rollForm({ intent: "nonsense" }),
      params(sold.id),
    );
    expect(answer).toMatchObject({ status: 400, data: { result: undefined } });
    expect((await journal()).rows).toHaveLength(before);
  });

  it("records the roll, back on the Trades screen, where the new put is the open position", async () => {
    const answer = await callAction(route, app.trader, recordRollHref(sold.id, into), rollForm(), params(sold.id));
    expect(answer).toMatchObject({
      status: 302,
      location: "/portfolio?period=all",
      toast: {
        type: "success",
        text: `${ROLL_TEXT.recorded}: AAPL ${sold.strike} put into the ${into.strike} put expiring ${into.expiry}`,
      },
    });
    const after = await journal();
    const aapl = after.open_options.filter((o) => o.ticker === "AAPL");
    expect(aapl).toMatchObject([{ strike: into.strike, expiry: into.expiry, contracts: CONTRACTS }]);
    const opened = after.rows.find((row) => row.kind === "sell_to_open" && row.expiry === into.expiry)!;
    const closed = after.rows.find((row) => row.kind === "buy_to_close" && row.expiry === sold.expiry)!;
    expect(opened.rolled_from).toBe(closed.id);

    // The old put has no candidates any more: the page says it is no longer open.
    const old = await callLoader(route, app.trader, rollHref(sold.id), params(sold.id));
    expect(old.status).toBe(409);
    expect((old.data as RollPage).error).toMatch(/no longer open/);
  });

  it("rolls a covered call up and out: shown as a call, recorded as a call, the shares still covered", async () => {
    const chain = await app.provider.provider.context.market.optionChain("MSFT");
    const calls_ = (e: (typeof chain.expirations)[number]) =>
      e.options.filter((o) => o.type === "call" && o.ask > 0 && o.bid > 0);
    const soonest = new Date(Date.now() + 3 * 24 * 3_600_000).toISOString().slice(0, 10);
    const [first, , later] = chain.expirations.filter((e) => e.expiration > soonest && calls_(e).length > 0);
    const near = calls_(first!).reduce((a, b) =>
      Math.abs(a.strike - chain.spot) <= Math.abs(b.strike - chain.spot) ? a : b,
    );
    const traded_at = new Date(Date.now() - 3_600_000).toISOString();
    await userCall(app.trader, calls.addTrade, {
      body: {
        kind: "stock_buy",
        ticker: "MSFT",
        quantity: 100,
        price: 400,
        fees: 0,
        traded_at: new Date(Date.now() - 7_200_000).toISOString(),
      },
    });
    const call = await userCall(app.trader, calls.addTrade, {
      body: {
        kind: "sell_to_open",
        ticker: "MSFT",
        option_type: "call",
        strike: near.strike,
        expiry: first!.expiration,
        quantity: 1,
        price: near.bid,
        fees: 0.65,
        traded_at,
      },
    });
    const page = await callLoader(route, app.trader, rollHref(call.id), params(call.id));
    expect(page.status).toBe(200);
    const rolls = (page.data as RollPage).rolls!;
    expect(rolls.position.option_type).toBe("call");
    expect(rolls.candidates.every((c) => c.strike >= near.strike && c.gain_if_called_away !== null)).toBe(true);

    const up = calls_(later!).find((o) => o.strike >= near.strike)!;
    const answer = await callAction(
      route,
      app.trader,
      rollHref(call.id),
      rollForm({ contracts: "1", strike: String(up.strike), expiry: later!.expiration, openPrice: String(up.bid) }),
      params(call.id),
    );
    expect(answer).toMatchObject({
      status: 302,
      toast: {
        text: `${ROLL_TEXT.recorded}: MSFT ${near.strike} call into the ${up.strike} call expiring ${later!.expiration}`,
      },
    });
    const msft = (await journal()).open_options.filter((o) => o.ticker === "MSFT");
    expect(msft).toMatchObject([{ option_type: "call", strike: up.strike, expiry: later!.expiration, contracts: 1 }]);
  });
});
