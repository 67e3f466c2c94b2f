import { readFileSync } from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

const fixture = (name: string) => readFileSync(new URL(`../journal/brokers/fixtures/${name}`, import.meta.url), "utf8");

let provider: TestProvider;
let counter = 0;

/** A fresh trader per test, so journals do not mix. */
async function trader() {
  const name = `wheel${++counter}`;
  await provider.call(calls.register, {
    body: {
      email: `${name}@example.test`,
      username: name,
      password: "Passw0rd-wheel",
      first_name: "W",
      last_name: "T",
    },
    headers: { "x-forwarded-for": `198.51.100.${counter}` },
  });
  return provider.login(name, "Passw0rd-wheel");
}

beforeAll(async () => {
  provider = await testProvider();
});
afterAll(() => provider.close());

const put = (strike: number, expiry: string) => ({ ticker: "KO", option_type: "put", strike, expiry });
const call = (strike: number, expiry: string) => ({ ticker: "KO", option_type: "call", strike, expiry });
const at = (date: string) => `${date}T12:00:00.000Z`;

/** The wheel of provider/journal/wheel.test.ts: P/L 647.00 on 5,000 of collateral over 405,000 collateral-days. */
const WHEEL = [
  { kind: "sell_to_open", ...put(50, "2026-01-30"), quantity: 1, price: 2, fees: 1, traded_at: at("2026-01-05") },
  { kind: "assignment", ...put(50, "2026-01-30"), quantity: 1, price: 0, fees: 0, traded_at: at("2026-01-30") },
  { kind: "sell_to_open", ...call(55, "2026-02-27"), quantity: 1, price: 1, fees: 1, traded_at: at("2026-02-02") },
  { kind: "expire", ...call(55, "2026-02-27"), quantity: 1, price: 0, fees: 0, traded_at: at("2026-02-27") },
  { kind: "sell_to_open", ...call(52, "2026-03-27"), quantity: 1, price: 1.5, fees: 1, traded_at: at("2026-03-02") },
  { kind: "exercise", ...call(52, "2026-03-27"), quantity: 1, price: 0, fees: 0, traded_at: at("2026-03-27") },
];

async function add(token: string, body: unknown) {
  return provider.call(calls.addTrade, { token, body });
}

describe("trades", () => {
  it("stores a trade with its OCC symbol and lists only the caller's own", async () => {
    const a = await trader();
    const b = await trader();
    const res = await add(a, WHEEL[0]);
    expect(res.status).toBe(200);
    const trade = calls.addTrade.response.parse(res.body);
    expect(trade).toMatchObject({
      kind: "sell_to_open",
      ticker: "KO",
      occ_symbol: "KO260130P00050000",
      source: "manual",
    });
    expect((await provider.call(calls.listTrades, { token: a })).body).toHaveLength(1);
    expect((await provider.call(calls.listTrades, { token: b })).body).toEqual([]);
    // Another trader's id answers like a missing one, for reading and for deleting.
    expect((await provider.call(calls.getTrade, { token: b, params: { id: trade.id } })).status).toBe(404);
    expect((await provider.call(calls.deleteTrade, { token: b, params: { id: trade.id } })).status).toBe(404);
    expect((await provider.call(calls.getTrade, { token: a, params: { id: trade.id } })).status).toBe(200);
  });

  it("validates every field with a readable detail, and a refused trade changes nothing", async () => {
    const a = await trader();
    const noStrike = await add(a, { ...WHEEL[0], strike: undefined, quantity: 1.5 });
    expect(noStrike.status).toBe(422);
    expect(noStrike.body.detail).toContain("Strike is required");
    expect(noStrike.body.detail).toContain("Contracts must be a whole number");
    const stockWithStrike = await add(a, {
      kind: "stock_buy",
      ticker: "KO",
      strike: 50,
      quantity: 1,
      price: 1,
      fees: 0,
      traded_at: at("2026-01-05"),
    });
    expect(stockWithStrike.body.detail).toContain("A stock trade has no put/call, strike or expiry");
    const negative = await add(a, { ...WHEEL[0], price: -1 });
    expect(negative.body.detail).toContain("Price must be at least 0");
    expect((await provider.call(calls.listTrades, { token: a })).body).toEqual([]);
  });

  // Issue 40 finding 4: each of these answered 500 (the OCC symbol or the database refused them).
  it.each([
    ["a 7-letter option ticker", { ticker: "ABCDEFG" }, "An option's ticker is at most 6 characters"],
    ["a 10-letter option ticker", { ticker: "ABCDEFGHIJ" }, "An option's ticker is at most 6 characters"],
    ["a strike under 0.001", { strike: 0.0004 }, "Strike must be from 0.001 to 99,999.999"],
    ["a strike of 100,000", { strike: 100_000 }, "Strike must be from 0.001 to 99,999.999"],
    ["a strike of 9,999,999", { strike: 9_999_999 }, "Strike must be from 0.001 to 99,999.999"],
    ["an expiry in 1999", { expiry: "1999-12-31" }, "Expiry must be from 2000-01-01 to 2099-12-31"],
    ["an expiry in 2100", { expiry: "2100-01-15" }, "Expiry must be from 2000-01-01 to 2099-12-31"],
    ["a trade dated in year 0", { traded_at: "0000-06-01T12:00:00Z" }, "A trade cannot be dated before 1900-01-01"],
  ])("refuses %s with 422 and a readable detail, storing nothing", async (_name, change, detail) => {
    const a = await trader();
    const res = await add(a, { ...WHEEL[0], ...change });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain(detail);
    expect((await provider.call(calls.listTrades, { token: a })).body).toEqual([]);
  });

  it("an import's preview refuses such a line with its reason, instead of listing it as to be added", async () => {
    const a = await trader();
    const [header, , , , sellToOpen] = fixture("tastytrade-transactions.csv").split("\n");
    const longRoot = sellToOpen!
      .replaceAll("T     260320P00025000", "ABCDEFG260320P00025000")
      .replace(",100,T,T,", ",100,ABCDEFG,ABCDEFG,");
    const hugeStrike = sellToOpen!.replace(",3/20/26,25,PUT,", ",3/20/26,100000,PUT,");
    const csv = [header, longRoot, hugeStrike].join("\n");
    const res = await provider.call(calls.previewImport, { token: a, body: { broker: "tastytrade", csv } });
    expect(res.status).toBe(200);
    const preview = calls.previewImport.response.parse(res.body);
    expect(preview.added).toEqual([]);
    expect(preview.refused).toEqual([
      { line: 2, reason: "ticker: An option's ticker is at most 6 characters" },
      { line: 3, reason: "strike: Strike must be from 0.001 to 99,999.999" },
    ]);
  });

  it("takes the bounds themselves: a 6-letter option ticker, strikes 0.001 and 99,999.999, a 2099 expiry", async () => {
    const a = await trader();
    // On a ticker the market has no chain for, so the bounds are tested and not the chain's strikes (issue 41).
    for (const change of [{}, { strike: 0.001 }, { strike: 99_999.999 }, { expiry: "2099-12-31" }]) {
      const sent = await add(a, { ...WHEEL[0], ticker: "ABCDEF", ...change });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
  });

  it("refuses an assignment without an open put, a close larger than the position, a trade in the future", async () => {
    const a = await trader();
    const assigned = await add(a, WHEEL[1]);
    expect(assigned.status).toBe(422);
    expect(assigned.body.detail).toBe(
      "Assignment needs an open short put: there is no open short KO 50 put expiring 2026-01-30 to close",
    );
    await add(a, WHEEL[0]);
    const tooMany = await add(a, { ...WHEEL[0], kind: "buy_to_close", quantity: 2, traded_at: at("2026-01-06") });
    expect(tooMany.body.detail).toBe(
      "Closing 2 contracts is more than the open position of 1 contract (KO 50 put expiring 2026-01-30)",
    );
    const future = await add(a, { ...WHEEL[0], traded_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.body.detail).toBe("A trade cannot be dated in the future");
    // A trade dated before the put it would close leaves that later trade impossible.
    await add(a, { ...WHEEL[0], kind: "buy_to_close", price: 1, traded_at: at("2026-01-10") });
    const early = await add(a, { ...WHEEL[0], kind: "buy_to_close", price: 1, traded_at: at("2026-01-08") });
    expect(early.status).toBe(422);
    expect(early.body.detail).toMatch(/^It would leave the buy-to-close of KO on 2026-01-10 impossible: /);
    expect((await provider.call(calls.listTrades, { token: a })).body).toHaveLength(2);
  });

  it("does not delete a trade a later one needs", async () => {
    const a = await trader();
    const sold = await add(a, WHEEL[0]);
    await add(a, WHEEL[1]);
    const res = await provider.call(calls.deleteTrade, { token: a, params: { id: sold.body.id } });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/^A later trade needs this one: Assignment needs an open short put/);
  });

  it("a whole wheel: the journal's cycle, figures and rows", async () => {
    const a = await trader();
    for (const trade of WHEEL) expect((await add(a, trade)).status).toBe(200);
    const res = await provider.call(calls.getJournal, { token: a });
    expect(res.status).toBe(200);
    const journal = calls.getJournal.response.parse(res.body);
    expect(journal.cycles).toEqual([
      expect.objectContaining({
        ticker: "KO",
        closed_at: at("2026-03-27"),
        realised_pnl: 647,
        premium_net: 447,
        capital: 5000,
        return_on_capital: 0.1294,
        collateral_days: 405_000,
        // 647 ÷ 405,000 × 365 = 0.58311…
        annualised_return: 0.5831,
        adjusted_cost_basis: null,
      }),
    ]);
    // The cycle step by step, with the adjusted basis after each (ADR 0079).
    expect(journal.cycles[0]!.steps.map((s) => [s.kind, s.option_type, s.shares, s.adjusted_cost_basis])).toEqual([
      ["sell_to_open", "put", 0, null],
      ["assignment", "put", 100, 48.01],
      ["sell_to_open", "call", 100, 47.02],
      ["expire", "call", 100, 47.02],
      ["sell_to_open", "call", 100, 45.53],
      ["exercise", "call", 0, null],
    ]);
    expect(journal.rows.map((r) => r.realised_pnl)).toEqual([349, null, 99, null, 199, null]);
    expect(journal.open_options).toEqual([]);
    expect(journal.share_lots).toEqual([]);
    expect(journal.stats).toMatchObject({ realised_pnl: 647, closing_trades: 3, closed_cycles: 1, win_rate: 1 });
    // From 1 March: only the call sold on 2 March and its exercise.
    const march = calls.getJournal.response.parse(
      (await provider.call(calls.getJournal, { token: a, query: { from: "2026-03-01T00:00:00.000Z" } })).body,
    );
    expect(march.rows).toHaveLength(2);
    expect(march.stats.realised_pnl).toBe(349);
  });

  it("an open short put shows collateral, premium kept, days held and the mark from the market", async () => {
    const a = await trader();
    const chain = await provider.context.market.optionChain("KO");
    const expiration = chain.expirations.at(-1)!;
    const option = expiration.options.find((o) => o.type === "put" && o.bid > 0)!;
    const soldAt = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await add(a, {
      kind: "sell_to_open",
      ticker: "KO",
      option_type: "put",
      strike: option.strike,
      expiry: expiration.expiration,
      quantity: 2,
      price: 1.2,
      fees: 1.3,
      traded_at: soldAt,
    });
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token: a })).body);
    const [open] = journal.open_options;
    const mark = Math.round(((option.bid + option.ask) / 2) * 100) / 100;
    const premium = 2 * 100 * 1.2 - 1.3;
    expect(open).toMatchObject({
      collateral: option.strike * 200,
      premium_kept: 238.7,
      days_held: 3,
      mark,
      pnl_at_mark: Math.round((premium - mark * 200) * 100) / 100,
    });
    expect(open!.pct_max_profit).toBeCloseTo((premium - mark * 200) / premium, 4);
  });

  it("a roll stores the buy-to-close and the sell-to-open linked, in one cycle", async () => {
    const a = await trader();
    await add(a, WHEEL[0]);
    const res = await provider.call(calls.rollTrade, {
      token: a,
      body: {
        close: { ...WHEEL[0], kind: "buy_to_close", price: 3, traded_at: at("2026-01-20") },
        open: {
          kind: "sell_to_open",
          ...put(48, "2026-02-27"),
          quantity: 1,
          price: 3.5,
          fees: 1,
          traded_at: at("2026-01-20"),
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.open.rolled_from).toBe(res.body.close.id);
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token: a })).body);
    expect(journal.cycles).toHaveLength(1);
    expect(journal.cycles[0]!.realised_pnl).toBe(-102);
  });

  it("a change sent twice with one Idempotency-Key is stored once", async () => {
    const a = await trader();
    const headers = { "Idempotency-Key": "trade-once-1" };
    const first = await provider.call(calls.addTrade, { token: a, body: WHEEL[0], headers });
    const again = await provider.call(calls.addTrade, { token: a, body: WHEEL[0], headers });
    expect(again.body).toEqual(first.body);
    expect((await provider.call(calls.listTrades, { token: a })).body).toHaveLength(1);
  });

  it("exports the journal as CSV with each closing trade's P/L", async () => {
    const a = await trader();
    for (const trade of WHEEL.slice(0, 2)) await add(a, trade);
    await add(a, {
      kind: "stock_buy",
      ticker: "MSFT",
      quantity: 1,
      price: 400,
      fees: 0,
      traded_at: at("2026-01-06"),
      notes: '=HYPERLINK("x"), said "hi"',
    });
    const res = await provider.call(calls.exportTrades, { token: a });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (res.body as string).trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,traded_at,kind,ticker,option_type,strike,expiry,occ_symbol,quantity,price,fees,realised_pnl,rolled_from,portfolio,strategy,notes,source",
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(
      ",2026-01-05T12:00:00.000Z,sell_to_open,KO,put,50,2026-01-30,KO260130P00050000,1,2,1,,,Default Portfolio,,,manual",
    );
    expect(lines[2]).toContain(`,MSFT,`);
    // A note a spreadsheet would run as a formula is written as text.
    expect(lines[2]).toContain(`"'=HYPERLINK(""x""), said ""hi"""`);
    expect(lines[3]).toContain(",assignment,KO,put,50,2026-01-30,KO260130P00050000,1,0,0,199,");
  });
});

describe("broker imports", () => {
  it("Interactive Brokers: previews what is added and what is not, imports it once", async () => {
    const a = await trader();
    const body = { broker: "ibkr", csv: fixture("ibkr-activity-statement.csv") };
    const preview = calls.previewImport.response.parse(
      (await provider.call(calls.previewImport, { token: a, body })).body,
    );
    expect(preview.added.map((t) => [t.line, t.kind, t.ticker, t.option_type ?? null, t.price, t.fees])).toEqual([
      [9, "sell_to_open", "KO", "put", 2, 1],
      [10, "assignment", "KO", "put", 0, 0],
      [11, "sell_to_open", "KO", "call", 1, 1],
      [12, "expire", "KO", "call", 0, 0],
      [16, "stock_buy", "MSFT", null, 400.5, 1],
      [20, "dividend", "KO", null, 0.51, 0], // 51.00 on 100 shares held
    ]);
    expect(preview.refused).toEqual([]);
    expect((await provider.call(calls.listTrades, { token: a })).body).toEqual([]);

    const imported = await provider.call(calls.importTrades, { token: a, body });
    expect(imported.status).toBe(200);
    expect(imported.body.added).toHaveLength(6);
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token: a })).body);
    // Assigned at 50 after a 2.00 put (fee 1) and a 1.00 call (fee 1) that expired, then a 0.51
    // dividend a share: 50 − 1.99 − 0.99 − 0.51.
    expect(journal.share_lots).toContainEqual({
      ticker: "KO",
      shares: 100,
      average_cost: 50,
      adjusted_cost_basis: 46.51,
    });
    expect(journal.rows.every((r) => r.source === "ibkr")).toBe(true);

    // The same file again adds nothing.
    const again = calls.importTrades.response.parse((await provider.call(calls.importTrades, { token: a, body })).body);
    expect(again.added).toEqual([]);
    expect(again.duplicates.map((d) => d.line)).toEqual([9, 10, 11, 12, 16, 20]);
    expect((await provider.call(calls.listTrades, { token: a })).body).toHaveLength(6);
  });

  it("tastytrade: a whole wheel, shares delivered by assignments counted with them, money movements skipped", async () => {
    const a = await trader();
    const body = { broker: "tastytrade", csv: fixture("tastytrade-transactions.csv") };
    const res = await provider.call(calls.importTrades, { token: a, body });
    expect(res.status).toBe(200);
    const preview = calls.importTrades.response.parse(res.body);
    // Oldest first; line numbers as in the file (newest first).
    expect(preview.added.map((t) => [t.line, t.kind, t.ticker, t.price, t.fees])).toEqual([
      [11, "stock_buy", "SPY", 580, 0.01],
      [10, "sell_to_open", "PEP", 2.1, 1.14],
      [8, "assignment", "PEP", 0, 0],
      [6, "sell_to_open", "PEP", 1.5, 1.14],
      [5, "sell_to_open", "T", 0.45, 2.27],
      [4, "expire", "T", 0, 0],
      [3, "exercise", "PEP", 0, 0.35], // the fee of the 100 shares called away (line 2)
    ]);
    expect(preview.skipped).toBe(3);
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token: a })).body);
    const pep = journal.cycles.find((c) => c.ticker === "PEP")!;
    // 210 − 1.14 + 150 − 1.14 + (165 − 160) × 100 − 0.35 (the called-away shares' fee) = 857.37
    expect(pep.realised_pnl).toBe(857.37);
    expect(pep.closed_at).not.toBeNull();
    const again = calls.importTrades.response.parse((await provider.call(calls.importTrades, { token: a, body })).body);
    expect(again.added).toEqual([]);
    expect(again.duplicates).toHaveLength(7);
  });

  it("a malformed file is refused as a whole, a bad line with its number and reason", async () => {
    const a = await trader();
    const notTasty = await provider.call(calls.previewImport, {
      token: a,
      body: { broker: "tastytrade", csv: "Date,Symbol,Price\n2026-01-05,KO,50\n" },
    });
    expect(notTasty.status).toBe(422);
    expect(notTasty.body.detail).toMatch(/^This is not a tastytrade transactions file: the columns Type, Action/);
    const notIbkr = await provider.call(calls.previewImport, {
      token: a,
      body: { broker: "ibkr", csv: fixture("tastytrade-transactions.csv") },
    });
    expect(notIbkr.body.detail).toBe("This is not an Interactive Brokers activity statement: it has no Trades section");

    const lines = fixture("ibkr-activity-statement.csv").split("\n");
    lines[8] = lines[8]!.replace(",-1,2,", ",-1,abc,"); // line 9: the put's price
    lines[15] = lines[15]!.replace('"2026-03-02, 10:00:00"', '"2099-03-02, 10:00:00"'); // line 16: in the future
    const preview = calls.previewImport.response.parse(
      (await provider.call(calls.previewImport, { token: a, body: { broker: "ibkr", csv: lines.join("\n") } })).body,
    );
    expect(preview.refused).toEqual([
      { line: 9, reason: 'T. Price "abc" is not a number' },
      // Without the put, its assignment has nothing to close; the call and its expiry still stand.
      {
        line: 10,
        reason: "Assignment needs an open short put: there is no open short KO 50 put expiring 2026-01-30 to close",
      },
      { line: 16, reason: "A trade cannot be dated in the future" },
      // Without the assignment, no KO shares were ever held for the dividend.
      { line: 20, reason: "A dividend on KO needs KO shares held in the journal before it" },
    ]);
    expect(preview.added.map((t) => t.line)).toEqual([11, 12]);
  });

  it("nothing is half-imported: a failure while writing leaves the journal as it was", async () => {
    const a = await trader();
    // A real database failure on the fourth line written: new PEP calls are refused by a constraint.
    await sql`ALTER TABLE trades ADD CONSTRAINT test_no_pep_calls CHECK (NOT (ticker = 'PEP' AND option_type = 'call')) NOT VALID`.execute(
      provider.context.db,
    );
    try {
      const res = await provider.call(calls.importTrades, {
        token: a,
        body: { broker: "tastytrade", csv: fixture("tastytrade-transactions.csv") },
      });
      expect(res.status).toBe(500);
      expect((await provider.call(calls.listTrades, { token: a })).body).toEqual([]);
    } finally {
      await sql`ALTER TABLE trades DROP CONSTRAINT test_no_pep_calls`.execute(provider.context.db);
    }
  });
});

describe("the journal refuses what cannot exist (issue 41)", () => {
  const jpmCall = (contracts: number, traded: string) => ({
    kind: "sell_to_open",
    ticker: "JPM",
    option_type: "call",
    strike: 260,
    expiry: "2026-03-20",
    quantity: contracts,
    price: 2,
    fees: 0.65,
    traded_at: at(traded),
  });
  const shares = (kind: "stock_buy" | "stock_sell", quantity: number, traded: string) => ({
    kind,
    ticker: "JPM",
    quantity,
    price: 250,
    fees: 0,
    traded_at: at(traded),
  });
  const ids = async (token: string) =>
    ((await provider.call(calls.listTrades, { token })).body as { id: number }[]).map((t) => t.id);

  it("refuses a short call with no shares, and a second call against 100 shares, storing nothing", async () => {
    const a = await trader();
    const naked = await add(a, jpmCall(1, "2026-03-02"));
    expect(naked.status).toBe(422);
    expect(naked.body.detail).toBe(
      "Not covered: 1 call on JPM need 100 shares, and 0 shares of JPM are held and not already covering a call. " +
        "Only covered calls are recorded: record the shares first.",
    );
    expect(await ids(a)).toEqual([]);

    expect((await add(a, shares("stock_buy", 100, "2026-03-02"))).status).toBe(200);
    expect((await add(a, jpmCall(1, "2026-03-03"))).status).toBe(200);
    const before = await ids(a);
    const second = await add(a, jpmCall(1, "2026-03-04"));
    expect(second.status).toBe(422);
    expect(second.body.detail).toContain("0 shares of JPM are held and not already covering a call");
    const twoAtOnce = await add(a, { ...jpmCall(2, "2026-03-04"), strike: 265 });
    expect(twoAtOnce.body.detail).toContain("2 calls on JPM need 200 shares");
    expect(await ids(a)).toEqual(before);
  });

  it("takes one call against 100 shares when fifty are sent at once", async () => {
    const a = await trader();
    await add(a, shares("stock_buy", 100, "2026-03-02"));
    const answers = await Promise.all(Array.from({ length: 50 }, () => add(a, jpmCall(1, "2026-03-03"))));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 422)).toHaveLength(49);
    expect(await ids(a)).toHaveLength(2);
  });

  it("takes a buy-write: the call recorded at the same minute as the shares it covers", async () => {
    const a = await trader();
    expect((await add(a, shares("stock_buy", 100, "2026-03-02"))).status).toBe(200);
    const call = await add(a, jpmCall(1, "2026-03-02"));
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    expect(await ids(a)).toHaveLength(2);
  });

  it("refuses selling the shares from under an open call", async () => {
    const a = await trader();
    await add(a, shares("stock_buy", 100, "2026-03-02"));
    await add(a, jpmCall(1, "2026-03-03"));
    const sale = await add(a, shares("stock_sell", 50, "2026-03-05"));
    expect(sale.status).toBe(422);
    expect(sale.body.detail).toBe(
      "Not covered: selling 50 shares of JPM would leave open calls needing 100 shares without them. Close the calls first.",
    );
  });

  it("refuses a Saturday and a holiday expiry by name, before asking the chain", async () => {
    const a = await trader();
    const saturday = await add(a, { ...WHEEL[0], expiry: "2026-12-19", traded_at: at("2026-11-02") });
    expect(saturday.status).toBe(422);
    expect(saturday.body.detail).toBe("Expiry 2026-12-19 is a Saturday: options expire on exchange trading days");
    const christmas = await add(a, { ...WHEEL[0], expiry: "2026-12-25", traded_at: at("2026-11-02") });
    expect(christmas.body.detail).toBe(
      "Expiry 2026-12-25 is Christmas Day, an NYSE holiday: options expire on exchange trading days",
    );
    expect(await ids(a)).toEqual([]);
  });
});
