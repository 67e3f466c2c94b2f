import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import type { Reconciliation } from "#contract/reconcile.ts";
import { saveBrokerSnapshot } from "#provider/broker/snapshot-store.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { weeklyExpiryIn } from "#provider/testing/expiries.ts";

let provider: TestProvider;
let counter = 0;

/** A fresh trader per test, so books do not mix. */
async function trader() {
  const name = `recon${++counter}`;
  await provider.call(calls.register, {
    body: {
      email: `${name}@example.test`,
      username: name,
      password: "Passw0rd-recon",
      first_name: "R",
      last_name: "T",
    },
    headers: { "x-forwarded-for": `198.51.100.${counter + 40}` },
  });
  return provider.session(name, "Passw0rd-recon");
}

beforeAll(async () => {
  provider = await testProvider();
});
afterAll(() => provider.close());

const HOUR = 3_600_000;
const expiry = weeklyExpiryIn(40);
const asOf = new Date(Date.now() - HOUR).toISOString();

/** The journal sold a KO 50 put the broker no longer holds; the broker holds 100 KO shares the journal never bought. */
async function planted() {
  const a = await trader();
  const sold = await provider.call(calls.addTrade, {
    token: a.token,
    body: {
      kind: "sell_to_open",
      ticker: "KO",
      option_type: "put",
      strike: 50,
      expiry,
      quantity: 1,
      price: 1.2,
      fees: 1,
      traded_at: new Date(Date.now() - 48 * HOUR).toISOString(),
    },
  });
  expect(sold.status).toBe(200);
  await saveBrokerSnapshot(provider.context.db, a.id, {
    source: "ibkr",
    as_of: asOf,
    positions: [
      { ticker: "KO", kind: "shares", option_type: null, strike: null, expiry: null, quantity: 100, cost_basis: 49.5 },
    ],
  });
  return a;
}

const tradeCount = async (token: string) =>
  ((await provider.call(calls.listTrades, { token })).body as unknown[]).length;

describe("the reconciliation", () => {
  it("without a snapshot says so; a source the caller has none of is a 404", async () => {
    const a = await trader();
    const got = await provider.call(calls.reconciliation, { token: a.token, query: {} });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ snapshot: null, sources: [], differences: [] });
    const missing = await provider.call(calls.reconciliation, { token: a.token, query: { source: "ibkr" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: "There are no positions from Interactive Brokers to compare" });
  });

  it("lists the planted differences beside both books", async () => {
    const a = await planted();
    const got = await provider.call(calls.reconciliation, { token: a.token, query: {} });
    expect(got.status).toBe(200);
    const body = got.body as Reconciliation;
    expect(body.snapshot).toEqual({ source: "ibkr", as_of: asOf });
    expect(body.differences.map((d) => [d.key, d.issue, d.fix])).toEqual([
      ["KO|shares", "missing", { action: "add", trade_kind: "stock_buy", quantity: 100, price: 49.5 }],
      [`KO|put|50|${expiry}`, "stale", { action: "close", trade_kind: "buy_to_close", quantity: 1, price: null }],
    ]);
    expect(body.totals.journal).toMatchObject({ shares: 0, short_puts: 1, put_collateral: 5000 });
    expect(body.totals.broker).toMatchObject({ shares: 100, shares_cost: 4950, short_puts: 0, put_collateral: 0 });
  });

  it("fixes each difference once: a second tap changes nothing; a close asks its price", async () => {
    const a = await planted();
    const add = { source: "ibkr", as_of: asOf, key: "KO|shares", action: "add", quantity: 100 } as const;
    // A page that showed another amount (the broker's book changed under it) records nothing.
    const otherAmount = await provider.call(calls.fixReconciliation, {
      token: a.token,
      body: { ...add, quantity: 99 },
    });
    expect(otherAmount.status).toBe(409);
    expect(await tradeCount(a.token)).toBe(1);
    const added = await provider.call(calls.fixReconciliation, { token: a.token, body: add });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({
      kind: "stock_buy",
      ticker: "KO",
      quantity: 100,
      price: 49.5,
      traded_at: asOf,
      notes: `Opening position: held at Interactive Brokers on ${asOf.slice(0, 10)}, added by the reconciliation`,
    });
    const again = await provider.call(calls.fixReconciliation, { token: a.token, body: add });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      detail: "This difference is no longer there as shown: nothing was recorded. Look again.",
    });
    expect(await tradeCount(a.token)).toBe(2);

    const close = { source: "ibkr", as_of: asOf, key: `KO|put|50|${expiry}`, action: "close", quantity: 1 } as const;
    const priceless = await provider.call(calls.fixReconciliation, { token: a.token, body: close });
    expect(priceless.status).toBe(422);
    expect(priceless.body).toEqual({ detail: "Enter the price a share" });
    expect(await tradeCount(a.token)).toBe(2);
    const closed = await provider.call(calls.fixReconciliation, { token: a.token, body: { ...close, price: 0.4 } });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ kind: "buy_to_close", strike: 50, expiry, quantity: 1, price: 0.4 });

    const after = await provider.call(calls.reconciliation, { token: a.token, query: { source: "ibkr" } });
    expect((after.body as Reconciliation).differences).toEqual([]);
  });

  it("a page from before the snapshot changed records nothing (409)", async () => {
    const a = await planted();
    const body = {
      source: "ibkr",
      as_of: new Date(Date.parse(asOf) - HOUR).toISOString(),
      key: "KO|shares",
      action: "add",
      quantity: 100,
    } as const;
    const stale = await provider.call(calls.fixReconciliation, { token: a.token, body });
    expect(stale.status).toBe(409);
    expect(await tradeCount(a.token)).toBe(1);
  });

  it("another trader sees none of it and cannot fix it (404)", async () => {
    await planted();
    const b = await trader();
    const got = await provider.call(calls.reconciliation, { token: b.token, query: {} });
    expect(got.body).toMatchObject({ snapshot: null, differences: [] });
    const body = { source: "ibkr", as_of: asOf, key: "KO|shares", action: "add", quantity: 100 } as const;
    const tap = await provider.call(calls.fixReconciliation, { token: b.token, body });
    expect(tap.status).toBe(404);
    expect(await tradeCount(b.token)).toBe(0);
  });
});

const fixture = (name: string) => readFileSync(new URL(`../journal/brokers/fixtures/${name}`, import.meta.url), "utf8");

describe("an import whose file lists its positions", () => {
  it("saves them as the broker's book: the planted short call is the one difference, fixed at its premium", async () => {
    const a = await trader();
    const body = { broker: "ibkr", csv: fixture("ibkr-open-positions.csv") } as const;
    const preview = await provider.call(calls.previewImport, { token: a.token, body });
    expect(preview.body).toMatchObject({ positions: { as_of: "2026-04-01T03:59:59.000Z", count: 3 } });
    // A preview saves nothing.
    expect((await provider.call(calls.reconciliation, { token: a.token, query: {} })).body).toMatchObject({
      snapshot: null,
    });
    expect((await provider.call(calls.importTrades, { token: a.token, body })).status).toBe(200);
    const got = (await provider.call(calls.reconciliation, { token: a.token, query: {} })).body as Reconciliation;
    expect(got.snapshot).toEqual({ source: "ibkr", as_of: "2026-04-01T03:59:59.000Z" });
    // KO's 100 shares at 50.00 and MSFT's 10 at 400.60 (400.50 + $1 fee) agree.
    expect(got.differences.map((d) => [d.key, d.issue, d.fix])).toEqual([
      ["KO|call|62.5|2026-04-17", "missing", { action: "add", trade_kind: "sell_to_open", quantity: 1, price: 0.85 }],
    ]);
    const fix = {
      source: "ibkr",
      as_of: got.snapshot!.as_of,
      key: "KO|call|62.5|2026-04-17",
      action: "add",
      quantity: 1,
    };
    const added = await provider.call(calls.fixReconciliation, { token: a.token, body: fix as never });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ kind: "sell_to_open", price: 0.85, traded_at: "2026-04-01T03:59:59.000Z" });
    const after = (await provider.call(calls.reconciliation, { token: a.token, query: {} })).body as Reconciliation;
    expect(after.differences).toEqual([]);
  });

  it("one position line it cannot read: refused with its line, and no book is saved", async () => {
    const a = await trader();
    const csv = fixture("ibkr-open-positions.csv").replace("MSFT,10,", "MSFT,0,");
    const imported = await provider.call(calls.importTrades, { token: a.token, body: { broker: "ibkr", csv } });
    expect(imported.body).toMatchObject({ positions: null });
    expect((imported.body as { refused: unknown[] }).refused).toContainEqual({
      line: 25,
      reason: "Open position: quantity: A position of 0 is no position; the file's positions are not saved",
    });
    expect((await provider.call(calls.reconciliation, { token: a.token, query: {} })).body).toMatchObject({
      snapshot: null,
    });
  });
});

describe("positions files of their own, and the broker's cash (ADR 0098)", () => {
  it("a Flex Query's trades and book: the journal matches, and the cash covers the puts' collateral", async () => {
    const a = await trader();
    const body = { broker: "ibkr", csv: fixture("ibkr-flex-positions.csv") } as const;
    const preview = await provider.call(calls.previewImport, { token: a.token, body });
    expect(preview.body).toMatchObject({
      added: [{ kind: "stock_buy" }, { kind: "sell_to_open" }],
      positions: { as_of: "2026-11-28T04:59:59.000Z", count: 2, cash: 13250.4 },
    });
    expect((await provider.call(calls.importTrades, { token: a.token, body })).status).toBe(200);
    const got = (await provider.call(calls.reconciliation, { token: a.token, query: {} })).body as Reconciliation;
    expect(got.differences).toEqual([]);
    // Two short KO 62.5 puts commit 62.5 × 100 × 2 = $12,500; the broker held $13,250.40.
    expect(got.cash).toEqual({ committed: 12500, broker: 13250.4, short: 0 });
  });

  it("Schwab's and tastytrade's positions exports arrive on the import form under their broker, trades none", async () => {
    const a = await trader();
    const schwab = { broker: "schwab", csv: fixture("schwab-positions.csv") } as const;
    const preview = await provider.call(calls.previewImport, { token: a.token, body: schwab });
    expect(preview.body).toMatchObject({
      added: [],
      refused: [],
      positions: { as_of: "2026-11-27T21:10:00.000Z", count: 2, cash: 13250.4 },
    });
    expect((await provider.call(calls.importTrades, { token: a.token, body: schwab })).status).toBe(200);
    const tasty = { broker: "tastytrade", csv: fixture("tastytrade-positions.csv") } as const;
    expect((await provider.call(calls.importTrades, { token: a.token, body: tasty })).status).toBe(200);
    const got = (await provider.call(calls.reconciliation, { token: a.token, query: {} })).body as Reconciliation;
    expect(got.sources.map((s) => s.source).sort()).toEqual(["schwab", "tastytrade"]);
    const fromSchwab = (await provider.call(calls.reconciliation, { token: a.token, query: { source: "schwab" } }))
      .body as Reconciliation;
    // The journal holds nothing: both positions are missing, and no put of the journal commits cash.
    expect(fromSchwab.differences.map((d) => [d.key, d.issue])).toEqual([
      ["KO|shares", "missing"],
      ["KO|put|62.5|2026-12-18", "missing"],
    ]);
    expect(fromSchwab.cash).toEqual({ committed: 0, broker: 13250.4, short: 0 });
    expect(await tradeCount(a.token)).toBe(0);
  });

  it("a positions file with a line it cannot read: refused with its line, and nothing is saved", async () => {
    const a = await trader();
    const csv = fixture("tastytrade-positions.csv").replace("-2,12/18/26", "-2,December");
    const imported = await provider.call(calls.importTrades, { token: a.token, body: { broker: "tastytrade", csv } });
    expect(imported.body).toMatchObject({
      positions: null,
      refused: [
        {
          line: 3,
          reason: 'Open position: Exp Date "December" is not like 12/18/26; the file\'s positions are not saved',
        },
      ],
    });
    expect((await provider.call(calls.reconciliation, { token: a.token, query: {} })).body).toMatchObject({
      snapshot: null,
    });
  });

  it("puts the cash does not cover: the shortfall, from the journal's puts at the snapshot's moment", async () => {
    const a = await planted();
    // The planted journal's one KO 50 put commits $5,000; the broker states $3,200 of cash.
    await saveBrokerSnapshot(provider.context.db, a.id, { source: "ofx", as_of: asOf, positions: [], cash: 3200 });
    const got = (await provider.call(calls.reconciliation, { token: a.token, query: { source: "ofx" } }))
      .body as Reconciliation;
    expect(got.cash).toEqual({ committed: 5000, broker: 3200, short: 1800 });
    // A source that states no cash: unknown, not zero.
    const ibkr = (await provider.call(calls.reconciliation, { token: a.token, query: { source: "ibkr" } }))
      .body as Reconciliation;
    expect(ibkr.cash).toEqual({ committed: 5000, broker: null, short: null });
  });
});
