import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { largeIbkrFile, largeOfxFile } from "#provider/testing/broker-files.ts";
import { MAX_IMPORT_LINES } from "#provider/journal/import.ts";

/**
 * Issue 40 finding 2: a 10,000-line broker file must not stall everyone else. A health probe polls
 * beside the preview and the import, as a monitor would; its answers must keep arriving while the
 * file is worked on, not all at the end (docs/decisions/0073-imports-in-linear-time.md).
 */
let provider: TestProvider;
let token: string;

beforeAll(async () => {
  provider = await testProvider();
  await provider.call(calls.register, {
    body: {
      email: "big@example.test",
      username: "bigfile",
      password: "Passw0rd-wheel",
      first_name: "B",
      last_name: "F",
    },
  });
  token = await provider.login("bigfile", "Passw0rd-wheel");
});
afterAll(() => provider.close());

let counter = 0;
/** A fresh trader, so journals do not mix. */
async function trader(on: TestProvider = provider) {
  const name = `importer${++counter}`;
  await on.call(calls.register, {
    body: {
      email: `${name}@example.test`,
      username: name,
      password: "Passw0rd-wheel",
      first_name: "I",
      last_name: "T",
    },
    headers: { "x-forwarded-for": `198.51.100.${counter}` },
  });
  return on.login(name, "Passw0rd-wheel");
}

const IBKR_HEADER =
  "Trades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,T. Price,C. Price,Proceeds,Comm/Fee,Basis,Realized P/L,MTM P/L,Code";
/** An IBKR activity statement's share line. */
const shares = (ticker: string, when: string, quantity: number, price: number) =>
  `Trades,Data,Order,Stocks,USD,${ticker},"${when}",${quantity},${price},${price},${-quantity * price},-1,0,0,0,${quantity > 0 ? "O" : "C"}`;

/** Runs `work` with a probe polling /healthz (about every millisecond); answers the probes answered meanwhile. */
async function probedWhile<T>(work: Promise<T>): Promise<{ result: T; answered: number }> {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  let answered = 0;
  while (!done) {
    const res = await provider.call(calls.health);
    expect(res.status).toBe(200);
    if (!done) answered += 1;
    await sleep(1);
  }
  return { result: await settled, answered };
}

describe("a 10,000-line broker file", () => {
  const body = { broker: "ibkr" as const, csv: largeIbkrFile(10_000) };

  it("previews and imports while other requests are answered, then re-imports as duplicates", async () => {
    const preview = await probedWhile(provider.call(calls.previewImport, { token, body }));
    expect(preview.result.status).toBe(200);
    expect(preview.result.body.added).toHaveLength(10_000);
    // Answered between the file's slices; a preview done in one block leaves the probe waiting throughout.
    expect(preview.answered).toBeGreaterThanOrEqual(20);

    const imported = await probedWhile(provider.call(calls.importTrades, { token, body }));
    expect(imported.result.status).toBe(200);
    expect(imported.result.body.added).toHaveLength(10_000);
    expect(imported.answered).toBeGreaterThanOrEqual(20);

    const again = await provider.call(calls.importTrades, { token, body });
    expect(again.body.added).toEqual([]);
    expect(again.body.duplicates).toHaveLength(10_000);
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body);
    expect(journal.rows).toHaveLength(10_000);
    // About 4 s alone; the whole suite runs a file per core beside it.
  }, 120_000);

  it("a file over the line cap is refused whole with the cap in the reason", async () => {
    const res = await provider.call(calls.previewImport, {
      token,
      body: { broker: "ibkr", csv: largeIbkrFile(MAX_IMPORT_LINES + 1) },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(
      "This file has 10,001 trade lines; at most 10,000 are read in one import. Export a shorter period and import the parts one after another.",
    );
  });
});

describe("broker files checked against the journal", () => {
  it("a line that would leave a later journal trade impossible is refused for it; the others are added", async () => {
    const token = await trader();
    const stock = (kind: string, quantity: number, day: string) => ({
      kind,
      ticker: "KO",
      quantity,
      price: 60,
      fees: 0,
      traded_at: `${day}T15:00:00.000Z`,
    });
    for (const trade of [stock("stock_buy", 100, "2026-01-02"), stock("stock_sell", 100, "2026-11-02")]) {
      expect((await provider.call(calls.addTrade, { token, body: trade })).status).toBe(200);
    }
    const csv = [
      IBKR_HEADER,
      shares("KO", "2026-03-02, 10:00:00", -50, 61), // line 2: leaves 50 for the sale of 100 in November
      shares("KO", "2026-04-01, 10:00:00", 10, 59), // line 3: more shares, harmless
      shares("KO", "2026-05-01, 10:00:00", -200, 62), // line 4: more than held
    ].join("\n");
    const preview = calls.previewImport.response.parse(
      (await provider.call(calls.previewImport, { token, body: { broker: "ibkr", csv } })).body,
    );
    expect(preview.refused).toEqual([
      {
        line: 2,
        reason:
          "It would leave the share sale of KO on 2026-11-02 impossible: Selling 100 shares of KO is more than the 50 shares held",
      },
      { line: 4, reason: "Selling 200 shares of KO is more than the 110 shares held" },
    ]);
    expect(preview.added.map((t) => t.line)).toEqual([3]);
  });

  it("two imports of one file at once add it once", async () => {
    const token = await trader();
    const csv = [
      IBKR_HEADER,
      shares("PEP", "2026-03-02, 10:00:00", 10, 150),
      shares("PEP", "2026-03-03, 10:00:00", -5, 151),
    ].join("\n");
    const both = await Promise.all(
      [1, 2].map(() => provider.call(calls.importTrades, { token, body: { broker: "ibkr", csv } })),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => r.body.added.length).sort()).toEqual([0, 2]);
    expect(both.map((r) => r.body.duplicates.length).sort()).toEqual([0, 2]);
    expect((await provider.call(calls.listTrades, { token })).body).toHaveLength(2);
  });
});

describe("previews and imports per trader", () => {
  it("fifty sent at once get the limit's worth answered, the rest 429 with the wait; nothing is added by those", async () => {
    const limited = await testProvider({ workLimits: { importsPerMinute: 5 } });
    try {
      const token = await trader(limited);
      const csv = [IBKR_HEADER, shares("T", "2026-03-02, 10:00:00", 10, 25)].join("\n");
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          limited.call(i % 2 ? calls.previewImport : calls.importTrades, { token, body: { broker: "ibkr", csv } }),
        ),
      );
      expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
      const refused = answers.filter((r) => r.status === 429);
      expect(refused).toHaveLength(45);
      expect(refused[0]!.body.detail).toMatch(
        /^Too many broker file previews and imports\. Please wait \d+ seconds? and try again\.$/,
      );
      expect(refused[0]!.headers.get("retry-after")).toMatch(/^\d+$/);
      // Which five win is the server's order, not the sending order: the file is added once if an
      // import was among them (re-imports are duplicates), never by a refused one.
      const imported = answers.some((r, i) => i % 2 === 0 && r.status === 200);
      expect((await limited.call(calls.listTrades, { token })).body).toHaveLength(imported ? 1 : 0);
    } finally {
      await limited.close();
    }
  });
});

const fixture = (name: string) => readFileSync(new URL(`../journal/brokers/fixtures/${name}`, import.meta.url), "utf8");

describe("imports keep the wheel whole (issue 43)", () => {
  const ko = (option_type: "put" | "call", strike: number, expiry: string) => ({
    ticker: "KO",
    option_type,
    strike,
    expiry,
  });
  /** The KO wheel of fixtures/ibkr-ko-wheel.csv as the forms enter it (times in UTC: the file's are US Eastern). */
  async function enterByForms(token: string) {
    const add = async (body: Record<string, unknown>) =>
      expect((await provider.call(calls.addTrade, { token, body })).status).toBe(200);
    await add({
      kind: "sell_to_open",
      ...ko("put", 65, "2026-06-12"),
      quantity: 2,
      price: 1.2,
      fees: 1.05,
      traded_at: "2026-05-04T14:15:00.000Z",
    });
    const roll = await provider.call(calls.rollTrade, {
      token,
      body: {
        close: {
          kind: "buy_to_close",
          ...ko("put", 65, "2026-06-12"),
          quantity: 2,
          price: 1.45,
          fees: 1.05,
          traded_at: "2026-05-26T15:02:00.000Z",
        },
        open: {
          kind: "sell_to_open",
          ...ko("put", 65, "2026-07-17"),
          quantity: 2,
          price: 2.1,
          fees: 1.05,
          traded_at: "2026-05-26T15:02:00.000Z",
        },
      },
    });
    expect(roll.status).toBe(200);
    await add({
      kind: "assignment",
      ...ko("put", 65, "2026-07-17"),
      quantity: 2,
      price: 0,
      fees: 0.17,
      traded_at: "2026-07-17T20:20:00.000Z",
    });
    await add({
      kind: "sell_to_open",
      ...ko("call", 66, "2026-08-21"),
      quantity: 2,
      price: 0.95,
      fees: 1.05,
      traded_at: "2026-07-20T14:05:00.000Z",
    });
    await add({
      kind: "exercise",
      ...ko("call", 66, "2026-08-21"),
      quantity: 2,
      price: 0,
      fees: 0.17,
      traded_at: "2026-08-21T20:20:00.000Z",
    });
  }
  const journalOf = async (token: string) =>
    calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body);
  const figures = (c: Awaited<ReturnType<typeof journalOf>>["cycles"][number]) => {
    // Ids differ between two traders' journals; the steps' figures must not.
    const { id: _id, trade_ids: _ids, steps, ...rest } = c;
    return { ...rest, steps: steps.map(({ trade_id: _trade, ...step }) => step) };
  };

  it("the IBKR KO file (a roll on one timestamp, an assignment, a call-away) is the forms' one cycle, to the cent", async () => {
    const byForms = await trader();
    await enterByForms(byForms);
    const byFile = await trader();
    const res = await provider.call(calls.importTrades, {
      token: byFile,
      body: { broker: "ibkr", csv: fixture("ibkr-ko-wheel.csv") },
    });
    expect(res.status).toBe(200);
    expect(res.body.refused).toEqual([]);
    expect(res.body.added).toHaveLength(7 - 1); // six trades; the two share lines are the option lines' share legs

    const [formCycles, fileCycles] = [(await journalOf(byForms)).cycles, (await journalOf(byFile)).cycles];
    expect(fileCycles).toHaveLength(1);
    expect(fileCycles.map(figures)).toEqual(formCycles.map(figures));
    // By hand: premiums 2×100×1.20 − 1.05 = 238.95, 2×100×2.10 − 1.05 = 418.95, 2×100×0.95 − 1.05 = 188.95;
    // the buy-back −(2×100×1.45 + 1.05) = −291.05; shares bought at 65 (fee 0.17) and called away at 66
    // (fee 0.17): 238.95 − 291.05 + 418.95 + 188.95 + 200 × (66 − 65) − 0.34 = 755.46 realised, net of
    // every fee. Collateral 13,000 (the puts, then the shares' cost) from 2026-05-04 14:15Z to 2026-08-21
    // 20:20Z = 109.2535 days → 1,420,295 collateral-days, less the 20 minutes between the July put's
    // expiry close (20:00Z) and its assignment's record (20:20Z), when a put ties up no cash
    // (ADR 0078): 13,000 × 20 ÷ 1,440 = 180.6 → 1,420,115; 755.46 ÷ 1,420,115 × 365 = 19.42 % annualised.
    expect(figures(fileCycles[0]!)).toMatchObject({
      opened_at: "2026-05-04T14:15:00.000Z",
      closed_at: "2026-08-21T20:20:00.000Z",
      realised_pnl: 755.46,
      capital: 13000,
      collateral_days: 1420115,
      return_on_capital: 0.0581,
      annualised_return: 0.1942,
    });
    const rows = (await journalOf(byFile)).rows;
    const btc = rows.find((r) => r.kind === "buy_to_close")!;
    expect(rows.find((r) => r.kind === "sell_to_open" && r.expiry === "2026-07-17")!.rolled_from).toBe(btc.id);
    // The share legs' commissions are the assignment's and the call-away's.
    expect(rows.filter((r) => r.kind === "assignment" || r.kind === "exercise").map((r) => r.fees)).toEqual([
      0.17, 0.17,
    ]);
  });

  it("a roll's two lines seconds apart in one minute are one cycle; a minute apart they are two", async () => {
    const lines = fixture("ibkr-ko-wheel.csv").split("\n");
    const apart = (close: string, open: string) => {
      const copy = [...lines];
      copy[6] = copy[6]!.replace("2026-05-26, 11:02:00", close);
      copy[7] = copy[7]!.replace("2026-05-26, 11:02:00", open);
      return copy.join("\n");
    };
    const sameMinute = await trader();
    await provider.call(calls.importTrades, {
      token: sameMinute,
      body: { broker: "ibkr", csv: apart("2026-05-26, 11:02:05", "2026-05-26, 11:02:41") },
    });
    expect((await journalOf(sameMinute)).cycles).toHaveLength(1);
    const nextMinute = await trader();
    await provider.call(calls.importTrades, {
      token: nextMinute,
      body: { broker: "ibkr", csv: apart("2026-05-26, 11:02:05", "2026-05-26, 11:03:41") },
    });
    expect((await journalOf(nextMinute)).cycles).toHaveLength(2);
  });
});

describe("a file that starts mid-cycle (issue 43)", () => {
  // The KO wheel's file from the assignment on: its put was sold before the file begins.
  const csv = fixture("ibkr-ko-wheel.csv")
    .split("\n")
    .filter((l) => !l.includes("KO 12JUN26") && !l.includes('KO 17JUL26 65 P,"2026-05-26'))
    .join("\n");
  const opening = {
    key: "KO|put|65|2026-07-17",
    kind: "sell_to_open",
    ticker: "KO",
    option_type: "put",
    strike: 65,
    expiry: "2026-07-17",
    quantity: 2,
    traded_at: "2026-07-17T20:19:59.000Z",
  };

  it("asks for the opening position's price, then brings it in and the cycle adds up", async () => {
    const token = await trader();
    const first = calls.previewImport.response.parse(
      (await provider.call(calls.previewImport, { token, body: { broker: "ibkr", csv } })).body,
    );
    expect(first.openings).toEqual([{ ...opening, price: null }]);
    expect(first.refused).toEqual([
      {
        line: 6,
        reason: "Assignment needs an open short put: there is no open short KO 65 put expiring 2026-07-17 to close",
      },
      // Without the assignment's shares, nothing to call away.
      { line: 8, reason: "Called away takes 200 shares of KO; 0 shares are held" },
    ]);

    const body = { broker: "ibkr" as const, csv, openings: { [opening.key]: 2.1 } };
    const res = await provider.call(calls.importTrades, { token, body });
    expect(res.status).toBe(200);
    const imported = calls.importTrades.response.parse(res.body);
    expect(imported.refused).toEqual([]);
    expect(imported.added.map((t) => [t.line, t.kind, t.price])).toEqual([
      [0, "sell_to_open", 2.1],
      [6, "assignment", 0],
      [7, "sell_to_open", 0.95],
      [8, "exercise", 0],
    ]);
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body);
    // Opening 2 × 100 × 2.10 = 420; shares at 65 (fee 0.17); call +188.95; called away at 66 (fee 0.17):
    // 420 − 13,000.17 + 188.95 + 13,199.83 = 808.61, one cycle.
    expect(journal.cycles.map((c) => [c.realised_pnl, c.closed_at])).toEqual([[808.61, "2026-08-21T20:20:00.000Z"]]);
    expect(journal.rows.find((r) => r.kind === "sell_to_open" && r.strike === 65)?.notes).toBe(
      "Opening position: held before the imported file begins",
    );

    const again = calls.importTrades.response.parse((await provider.call(calls.importTrades, { token, body })).body);
    expect(again.added).toEqual([]);
    expect(again.openings).toEqual([]);
  });

  it("a bad opening price is refused with the reason and adds nothing", async () => {
    const token = await trader();
    const res = await provider.call(calls.importTrades, {
      token,
      body: { broker: "ibkr", csv, openings: { [opening.key]: -1 } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/An opening price must be at least 0/);
    expect((await provider.call(calls.listTrades, { token })).body).toEqual([]);
  });
});

describe("tastytrade's older layout (no Sub Type column)", () => {
  it("imports to the same trades and cycles as the current layout", async () => {
    const [current, older] = [await trader(), await trader()];
    const importOf = async (token: string, name: string) =>
      calls.importTrades.response.parse(
        (await provider.call(calls.importTrades, { token, body: { broker: "tastytrade", csv: fixture(name) } })).body,
      );
    const [a, b] = [
      await importOf(current, "tastytrade-transactions.csv"),
      await importOf(older, "tastytrade-transactions-older.csv"),
    ];
    expect(b.refused).toEqual([]);
    expect(b.added).toEqual(a.added);
    const journalOf = async (token: string) =>
      calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body).cycles.map((c) => ({
        ticker: c.ticker,
        realised_pnl: c.realised_pnl,
        annualised_return: c.annualised_return,
        adjusted_cost_basis: c.adjusted_cost_basis,
      }));
    const cycles = await journalOf(older);
    expect(cycles).toEqual(await journalOf(current));
    // 210 − 1.14 + 150 − 1.14 + (165 − 160) × 100 − 0.35 = 857.37 (the assignment and the call-away).
    expect(cycles.find((c) => c.ticker === "PEP")!.realised_pnl).toBe(857.37);
  });

  it("an older file without Action is refused whole with the columns it lacks", async () => {
    const token = await trader();
    const res = await provider.call(calls.previewImport, {
      token,
      body: { broker: "tastytrade", csv: fixture("tastytrade-transactions-older.csv").replace("Action,", "Verb,") },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe("This is not a tastytrade transactions file: the columns Action are missing");
  });
});

describe("index options (issue 43)", () => {
  const TASTY_HEADER =
    "Date,Type,Sub Type,Action,Symbol,Instrument Type,Description,Value,Quantity,Average Price,Commissions,Fees,Multiplier,Root Symbol,Underlying Symbol,Expiration Date,Strike Price,Call or Put,Order #,Currency";

  it("tastytrade: an SPX put sold and expired is a cycle; a cash-settled assignment is refused with the reason", async () => {
    const token = await trader();
    const csv = [
      TASTY_HEADER,
      "2026-01-16T16:00:00-0500,Receive Deliver,Expiration,BUY_TO_CLOSE,SPXW  260116P05800000,Index Option,Removal of SPXW 260116P05800000 due to expiration.,0.00,1,0.00,--,0.00,100,SPXW,SPX,1/16/26,5800,PUT,,USD",
      '2026-01-05T10:00:00-0500,Trade,Sell to Open,SELL_TO_OPEN,SPXW  260116P05800000,Index Option,Sold 1 SPXW 01/16/26 Put 5800.00 @ 12.50,"1,250.00",1,"1,250.00",-1.00,-0.65,100,SPXW,SPX,1/16/26,5800,PUT,500001,USD',
      "2026-02-20T16:00:00-0500,Receive Deliver,Assignment,BUY_TO_CLOSE,SPXW  260220P05700000,Index Option,Removal of option due to assignment,0.00,1,0.00,--,0.00,100,SPXW,SPX,2/20/26,5700,PUT,,USD",
    ].join("\n");
    const res = calls.importTrades.response.parse(
      (await provider.call(calls.importTrades, { token, body: { broker: "tastytrade", csv } })).body,
    );
    expect(res.added.map((t) => [t.line, t.kind, t.ticker, t.strike, t.price, t.fees])).toEqual([
      [3, "sell_to_open", "SPX", 5800, 12.5, 1.65],
      [2, "expire", "SPX", 5800, 0, 0],
    ]);
    expect(res.refused).toEqual([
      {
        line: 4,
        reason:
          "A cash-settled index option's assignment delivers no shares: record its settlement as a buy-to-close at the settlement price",
      },
    ]);
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body);
    // 1 × 100 × 12.50 − 1.65 = 1,248.35 kept; cash-secured on 5,800 × 100 = 580,000.
    expect(journal.cycles.map((c) => [c.ticker, c.realised_pnl, c.capital])).toEqual([["SPX", 1248.35, 580000]]);
  });

  it("Interactive Brokers: an SPX put from the Equity and Index Options section imports", async () => {
    const token = await trader();
    const csv = [
      IBKR_HEADER,
      'Trades,Data,Order,Equity and Index Options,USD,SPX 16JAN26 5800 P,"2026-01-05, 10:00:00",-1,12.5,12.4,1250,-1.65,-1248.35,0,10,O',
    ].join("\n");
    const res = calls.previewImport.response.parse(
      (await provider.call(calls.previewImport, { token, body: { broker: "ibkr", csv } })).body,
    );
    expect(res.added.map((t) => [t.kind, t.ticker, t.option_type, t.strike, t.expiry, t.traded_at])).toEqual([
      ["sell_to_open", "SPX", "put", 5800, "2026-01-16", "2026-01-05T15:00:00.000Z"],
    ]);
  });
});

describe("Interactive Brokers Flex Query (issue 43)", () => {
  it("the KO wheel as a Flex Query's Trades imports to the activity statement's one cycle", async () => {
    const [statement, flex] = [await trader(), await trader()];
    const importOf = async (token: string, name: string) =>
      calls.importTrades.response.parse(
        (await provider.call(calls.importTrades, { token, body: { broker: "ibkr", csv: fixture(name) } })).body,
      );
    const viaFlex = await importOf(flex, "ibkr-flex-ko-wheel.csv");
    expect(viaFlex.refused).toEqual([]);
    expect(viaFlex.skipped).toBe(2); // the two share legs
    await importOf(statement, "ibkr-ko-wheel.csv");
    const cyclesOf = async (token: string) =>
      calls.getJournal.response
        .parse((await provider.call(calls.getJournal, { token })).body)
        .cycles.map(({ id: _id, trade_ids: _ids, steps, ...figures }) => ({
          ...figures,
          steps: steps.map(({ trade_id: _trade, ...step }) => step),
        }));
    const cycles = await cyclesOf(flex);
    expect(cycles).toEqual(await cyclesOf(statement));
    // The hand-worked KO wheel above: 755.46 realised, 19.42 % annualised.
    expect(cycles.map((c) => [c.realised_pnl, c.annualised_return])).toEqual([[755.46, 0.1942]]);
  });

  it("a bad Flex row gets its reason; a Flex file without the needed columns is refused whole", async () => {
    const token = await trader();
    const lines = fixture("ibkr-flex-ko-wheel.csv").split("\n");
    lines[1] = lines[1]!.replace('"20260504;101500"', '"May 4"');
    const preview = calls.previewImport.response.parse(
      (await provider.call(calls.previewImport, { token, body: { broker: "ibkr", csv: lines.join("\n") } })).body,
    );
    expect(preview.refused[0]).toEqual({ line: 2, reason: 'DateTime "May 4" is not like 20260105;103112' });
    const res = await provider.call(calls.previewImport, {
      token,
      body: { broker: "ibkr", csv: fixture("ibkr-flex-ko-wheel.csv").replace('"TradePrice"', '"Price"') },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(
      "This is not an Interactive Brokers Flex Query (Trades): the columns TradePrice are missing",
    );
  });
});

describe("Schwab transactions (issue 43)", () => {
  it("the KO wheel from Schwab: a roll on one day, assignment and call-away with their share legs' fees, a dividend", async () => {
    const token = await trader();
    const res = calls.importTrades.response.parse(
      (
        await provider.call(calls.importTrades, {
          token,
          body: { broker: "schwab", csv: fixture("schwab-transactions.csv") },
        })
      ).body,
    );
    expect(res.refused).toEqual([]);
    expect(res.skipped).toBe(4); // the two share legs, the transfer, the total
    expect(res.added.map((t) => [t.line, t.kind, t.price, t.fees])).toEqual([
      [10, "sell_to_open", 1.2, 1.05],
      [9, "buy_to_close", 1.45, 1.05],
      [8, "sell_to_open", 2.1, 1.05],
      [7, "assignment", 0, 0.17],
      [5, "sell_to_open", 0.95, 1.05],
      [4, "dividend", 102, 0],
      [3, "exercise", 0, 0.17],
    ]);
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body);
    // The IBKR KO wheel's 755.46 plus the 102.00 dividend = 857.46. Schwab gives days only: trades at
    // noon New York, the assignment and call-away at 16:00 — collateral 13,000 from 2026-05-04 16:00Z to
    // 2026-08-21 20:00Z = 109.1667 days → 1,419,167 collateral-days; 857.46 ÷ 1,419,167 × 365 = 22.05 %.
    expect(journal.cycles.map((c) => [c.realised_pnl, c.collateral_days, c.annualised_return])).toEqual([
      [857.46, 1419167, 0.2205],
    ]);
    expect(journal.rows.every((r) => r.source === "schwab")).toBe(true);
    const again = calls.importTrades.response.parse(
      (
        await provider.call(calls.importTrades, {
          token,
          body: { broker: "schwab", csv: fixture("schwab-transactions.csv") },
        })
      ).body,
    );
    expect(again.added).toEqual([]);
    expect(again.duplicates).toHaveLength(7);
  });

  it("a bad Schwab line gets its reason, a file of another broker is refused whole", async () => {
    const token = await trader();
    const csv = fixture("schwab-transactions.csv").replace('"07/20/2026","Sell to Open"', '"July 20","Sell to Open"');
    const preview = calls.previewImport.response.parse(
      (await provider.call(calls.previewImport, { token, body: { broker: "schwab", csv } })).body,
    );
    expect(preview.refused).toContainEqual({ line: 5, reason: 'Date "July 20" is not like 01/30/2026' });
    const other = await provider.call(calls.previewImport, {
      token,
      body: { broker: "schwab", csv: fixture("ibkr-ko-wheel.csv") },
    });
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(/^This is not a Schwab transactions file: the columns .* are missing$/);
    expect((await provider.call(calls.listTrades, { token })).body).toEqual([]);
  });
});

describe("OFX/QFX investment statements (issue 43)", () => {
  const ofx = fixture("ofx-ko-wheel.ofx");
  const sgml =
    "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n" +
    ofx.slice(ofx.indexOf("<OFX>")).replace(/(<([A-Z0-9.]+)>[^<]+)<\/\2>/g, "$1");
  const journalOf = async (token: string) =>
    calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body);

  it("the KO wheel with a dividend imports to one cycle, to the cent; re-importing adds nothing", async () => {
    const token = await trader();
    const res = await provider.call(calls.importTrades, { token, body: { broker: "ofx", csv: ofx } });
    expect(res.status).toBe(200);
    expect(res.body.refused).toEqual([]);
    expect(res.body.added).toHaveLength(7);
    expect(res.body.skipped).toBe(3); // the two share legs and the interest
    const journal = await journalOf(token);
    expect(journal.cycles).toHaveLength(1);
    // By hand: the IBKR KO wheel above realised 755.46 net of every fee (the roll kept whole, the share
    // legs' 0.17 fees on the assignment and the call-away); the 102.00 dividend adds to it: 857.46.
    // Collateral (a dividend commits none): the puts' 13,000 from 2026-05-04 14:15Z to the July put's
    // expiry close, 07-17 20:00Z (ADR 0078), 74.2396 days = 965,114.58; the shares' cost 13,000 from the
    // assignment, 07-17 20:20Z, to the call-away, 08-21 20:20Z, 35 days = 455,000: 1,420,114.58.
    // 857.46 ÷ 13,000 = 6.60 % on capital; 857.46 ÷ 1,420,114.58 × 365 = 22.04 % annualised.
    expect(journal.cycles[0]).toMatchObject({
      opened_at: "2026-05-04T14:15:00.000Z",
      closed_at: "2026-08-21T20:20:00.000Z",
      realised_pnl: 857.46,
      capital: 13000,
      collateral_days: 1420115,
      return_on_capital: 0.066,
      annualised_return: 0.2204,
    });
    // Adjusted basis per share: premiums before the assignment 238.95 − 291.05 + 418.95 = 366.85, shares
    // cost 13,000.17: (13,000.17 − 366.85) ÷ 200 = 63.17; the call's 188.95: 62.22; the dividend: 61.71.
    // Called away, no shares are left: no basis after the last step.
    expect(journal.cycles[0]!.steps.map((s) => [s.kind, s.adjusted_cost_basis])).toEqual([
      ["sell_to_open", null],
      ["buy_to_close", null],
      ["sell_to_open", null],
      ["assignment", 63.17],
      ["sell_to_open", 62.22],
      ["dividend", 61.71],
      ["exercise", null],
    ]);
    const btc = journal.rows.find((r) => r.kind === "buy_to_close")!;
    expect(journal.rows.find((r) => r.expiry === "2026-07-17" && r.kind === "sell_to_open")!.rolled_from).toBe(btc.id);

    const again = await provider.call(calls.importTrades, { token, body: { broker: "ofx", csv: ofx } });
    expect(again.body.added).toEqual([]);
    expect(again.body.duplicates).toHaveLength(7);
    // The same statement as OFX 1.x SGML has the same FITIDs: nothing new either.
    const asSgml = await provider.call(calls.importTrades, { token, body: { broker: "ofx", csv: sgml } });
    expect(asSgml.body.added).toEqual([]);
    expect((await journalOf(token)).rows).toHaveLength(7);
  });

  it("OFX 1.x SGML imports to the same cycle as the XML", async () => {
    const [xmlTrader, sgmlTrader] = [await trader(), await trader()];
    await provider.call(calls.importTrades, { token: xmlTrader, body: { broker: "ofx", csv: ofx } });
    const res = await provider.call(calls.importTrades, { token: sgmlTrader, body: { broker: "ofx", csv: sgml } });
    expect(res.body.refused).toEqual([]);
    // Everything but the ids the two journals gave their rows.
    const cyclesOf = async (token: string) =>
      JSON.stringify((await journalOf(token)).cycles, (key, value: unknown) =>
        key === "id" || key === "trade_ids" || key === "trade_id" ? undefined : value,
      );
    expect(await cyclesOf(sgmlTrader)).toEqual(await cyclesOf(xmlTrader));
    expect(await cyclesOf(sgmlTrader)).toContain('"realised_pnl":857.46');
  });

  it("bad files change nothing: not OFX is refused whole; a cut file's lines get reasons", async () => {
    const token = await trader();
    const notOfx = await provider.call(calls.importTrades, {
      token,
      body: { broker: "ofx", csv: fixture("ibkr-ko-wheel.csv") },
    });
    expect(notOfx.status).toBe(422);
    expect(notOfx.body.detail).toBe("This is not an OFX or QFX file: it has no <OFX> element");
    const cut = ofx.slice(0, ofx.indexOf("</INVTRANLIST>") - 40);
    const preview = calls.previewImport.response.parse(
      (await provider.call(calls.previewImport, { token, body: { broker: "ofx", csv: cut } })).body,
    );
    expect(preview.added).toEqual([]);
    // Cut inside the call-away's SELLSTOCK, before the SECLIST.
    expect(preview.refused.at(-1)).toEqual({
      line: 140,
      reason: "The file ends inside this transaction (is it cut short?)",
    });
    expect(preview.refused[0]).toEqual({
      line: 31,
      reason: "Security CUSIP:KO260612P65 is not described in the file's SECLIST (is the file cut short?)",
    });
    // The dividend (its stock is undescribed too) and every option line are refused: nothing is added.
    expect(preview.refused.map((r) => r.line)).toEqual([31, 46, 61, 76, 98, 113, 131, 140]);
    await provider.call(calls.importTrades, { token, body: { broker: "ofx", csv: cut } });
    expect((await journalOf(token)).rows).toEqual([]);
  });

  it("a statement near the 1 MB limit previews while other requests are answered; over the line cap is refused", async () => {
    const token = await trader();
    const big = largeOfxFile(5_000);
    expect(big.length).toBeLessThan(1_000_000);
    const preview = await probedWhile(provider.call(calls.previewImport, { token, body: { broker: "ofx", csv: big } }));
    expect(preview.result.status).toBe(200);
    expect(preview.result.body.added).toHaveLength(5_000);
    // Half the 10,000-line file's work, so a lower bar; that the reading itself is sliced is checked
    // exactly in provider/journal/brokers/ofx.test.ts.
    expect(preview.answered).toBeGreaterThanOrEqual(10);

    const tooMany = `<OFX><INVSTMTRS><INVTRANLIST>${"<INCOME><INVTRAN><FITID>1</INVTRAN></INCOME>".repeat(MAX_IMPORT_LINES + 1)}</INVTRANLIST></INVSTMTRS></OFX>`;
    const res = await provider.call(calls.previewImport, { token, body: { broker: "ofx", csv: tooMany } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(
      "This file has 10,001 trade lines; at most 10,000 are read in one import. Export a shorter period and import the parts one after another.",
    );
  });
});
