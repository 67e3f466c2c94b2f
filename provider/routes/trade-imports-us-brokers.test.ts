import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import type { Broker } from "#contract/entities.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

/**
 * Fidelity, Robinhood, TD Ameritrade and E*TRADE files (issue 43; docs/decisions/0096-us-broker-csv-imports.md):
 * each fixture is the KO wheel written in its broker's published layout — a put sold, rolled on one day,
 * assigned, a covered call sold, called away, and a dividend between — and must come out as one cycle
 * whose figures are worked out by hand below.
 *
 * The three files give days without times, so (as for Schwab, ADR 0074) trades are at noon New York and
 * the assignment and call-away at 16:00. Collateral 13,000 (the puts, then the shares' cost) from
 * 2026-05-04 16:00Z to 2026-08-21 20:00Z = 109 d 4 h = 109.1667 days → 1,419,166.67 collateral-days
 * (the put assigned at its expiry close ties up no extra time, ADR 0078). Annualised = P/L ÷ that × 365.
 */
let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider();
});
afterAll(() => provider.close());

let counter = 0;
async function trader() {
  const name = `usbroker${++counter}`;
  await provider.call(calls.register, {
    body: {
      email: `${name}@example.test`,
      username: name,
      password: "Passw0rd-wheel",
      first_name: "U",
      last_name: "B",
    },
    headers: { "x-forwarded-for": `198.51.100.${counter}` },
  });
  return provider.login(name, "Passw0rd-wheel");
}
const fixture = (name: string) => readFileSync(new URL(`../journal/brokers/fixtures/${name}`, import.meta.url), "utf8");
const journalOf = async (token: string) =>
  calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body);

interface Case {
  broker: Broker;
  file: string;
  what: RegExp;
  /** [line, kind, price, fees] in the order added. */
  added: [number, string, number, number][];
  skipped: number;
  realised: number;
  returnOnCapital: number;
  annualised: number;
  /** Adjusted basis per share after the assignment, the call and the dividend. */
  bases: [number, number, number];
  /** A line made unreadable, and the reason it gets. */
  bad: { from: string; to: string; line: number; reason: string }[];
  /** The file without the put sold and rolled: it starts with the July put open. */
  midCycle: (csv: string) => string;
  /** The mid-cycle file with the July put's opening price 2.10: P/L by hand. */
  midCycleRealised: number;
}

const CASES: Case[] = [
  {
    broker: "robinhood",
    file: "robinhood-activity.csv",
    what: /^This is not a Robinhood account activity file: the columns .* are missing$/,
    // No fee column: each line's fees are what Amount falls short of Quantity × Price (× 100): the
    // put 2 × 100 × 1.20 = 240 against $239.96 → 0.04; the call-away's shares 200 × 66 = 13,200 against
    // $13,199.90 → 0.10, the call-away's fees (the share line is its share leg).
    added: [
      [12, "sell_to_open", 1.2, 0.04],
      [11, "buy_to_close", 1.45, 0.04],
      [10, "sell_to_open", 2.1, 0.04],
      [9, "assignment", 0, 0],
      [6, "sell_to_open", 0.95, 0.04],
      [5, "dividend", 102, 0],
      [4, "exercise", 0, 0.1],
    ],
    skipped: 4, // the two share legs, the ACH deposit, the disclaimer
    // Premiums 239.96 − 290.04 + 419.96 + 189.96 = 559.84; shares 200 × (66 − 65) − 0.10 = 199.90;
    // dividend 102.00: 861.74. 861.74 ÷ 13,000 = 6.63 %; 861.74 ÷ 1,419,166.67 × 365 = 22.16 %.
    realised: 861.74,
    returnOnCapital: 0.0663,
    annualised: 0.2216,
    // (13,000 − (239.96 − 290.04 + 419.96)) ÷ 200 = 63.15; − 189.96 ÷ 200 = 62.20; − 102 ÷ 200 = 61.69.
    bases: [63.15, 62.2, 61.69],
    bad: [
      {
        from: '"7/20/2026","7/20/2026","7/21/2026","KO","KO 8/21/2026 Call $66.00","STO","2","$0.95","$189.96"',
        to: '"July 20","7/20/2026","7/21/2026","KO","KO 8/21/2026 Call $66.00","STO","2","$0.95","$189.96"',
        line: 6,
        reason: 'Activity Date "July 20" is not like 6/12/2026',
      },
      {
        from: '"KO 6/12/2026 Put $65.00","BTC","2","$1.45","($290.04)"',
        to: '"KO 6/12/2026 Put $65.00","BTC","2","$1.45","($280.00)"',
        line: 11,
        reason: 'Amount "($280.00)" is more than Quantity × Price × 100, so its fees cannot be told',
      },
    ],
    midCycle: (csv) =>
      csv
        .split("\n")
        .filter((l) => !/"(STO|BTC)","2","\$(1\.20|1\.45|2\.10)"/.test(l))
        .join("\n"),
    // Opening put 2 × 100 × 2.10 = 420; call 189.96; dividend 102; call-away 199.90: 911.86.
    midCycleRealised: 911.86,
  },
  {
    broker: "fidelity",
    file: "fidelity-history.csv",
    what: /^This is not a Fidelity account history file: the columns .* are missing$/,
    // Fees are Commission ($) + Fees ($): 1.30 + 0.04 an option line; the call-away's share line's 0.33
    // is the call-away's. The assignments are posted on the Monday "as of" the Friday: read on the Friday.
    added: [
      [13, "sell_to_open", 1.2, 1.34],
      [12, "buy_to_close", 1.45, 1.34],
      [11, "sell_to_open", 2.1, 1.34],
      [10, "assignment", 0, 0],
      [8, "sell_to_open", 0.95, 1.34],
      [7, "dividend", 102, 0],
      [6, "exercise", 0, 0.33],
    ],
    skipped: 5, // the two share legs, the transfer in, the disclaimer and the download date
    // Premiums 238.66 − 291.34 + 418.66 + 188.66 = 554.64; shares 200 − 0.33 = 199.67; dividend 102:
    // 856.31. 856.31 ÷ 13,000 = 6.59 %; 856.31 ÷ 1,419,166.67 × 365 = 22.02 %.
    realised: 856.31,
    returnOnCapital: 0.0659,
    annualised: 0.2202,
    // (13,000 − 365.98) ÷ 200 = 63.17; − 188.66 ÷ 200 = 62.23; − 102 ÷ 200 = 61.72.
    bases: [63.17, 62.23, 61.72],
    bad: [
      {
        from: '07/20/2026,"YOU SOLD OPENING',
        to: 'July 20,"YOU SOLD OPENING',
        line: 8,
        reason: 'Run Date "July 20" is not like 06/12/2026',
      },
      {
        from: "Cash,2,1.45,1.30,0.04",
        to: "Cash,two,1.45,1.30,0.04",
        line: 12,
        reason: 'Quantity "two" is not a number other than 0',
      },
    ],
    midCycle: (csv) =>
      csv
        .split("\n")
        .filter((l) => !/^05\/(04|26)\/2026/.test(l))
        .join("\n"),
    // 420 + 188.66 + 102 + 199.67 = 910.33.
    midCycleRealised: 910.33,
  },
  {
    broker: "tdameritrade",
    file: "td-ameritrade-transactions.csv",
    what: /^This is not a TD Ameritrade transactions file: the columns .* are missing$/,
    // Fees are COMMISSION + REG FEE: 1.30 + 0.03 a sale, 1.30 the buy-back; the call-away's shares' REG
    // FEE 0.32 is the call-away's.
    added: [
      [3, "sell_to_open", 1.2, 1.33],
      [4, "buy_to_close", 1.45, 1.3],
      [5, "sell_to_open", 2.1, 1.33],
      [6, "assignment", 0, 0],
      [8, "sell_to_open", 0.95, 1.33],
      [9, "dividend", 102, 0],
      [10, "exercise", 0, 0.32],
    ],
    skipped: 4, // the funding, the two share legs, the end-of-file line
    // Premiums 238.67 − 291.30 + 418.67 + 188.67 = 554.71; shares 200 − 0.32 = 199.68; dividend 102:
    // 856.39. 856.39 ÷ 13,000 = 6.59 %; 856.39 ÷ 1,419,166.67 × 365 = 22.03 %.
    realised: 856.39,
    returnOnCapital: 0.0659,
    annualised: 0.2203,
    // (13,000 − 366.04) ÷ 200 = 63.17; − 188.67 ÷ 200 = 62.23; − 102 ÷ 200 = 61.72.
    bases: [63.17, 62.23, 61.72],
    bad: [
      {
        from: "07/20/2026,52810000007",
        to: "July 20,52810000007",
        line: 8,
        reason: 'DATE "July 20" is not like 06/12/2026',
      },
      {
        from: "KO Jun 12 2026 65.0 Put,1.45,",
        to: "KO Jun 12 2026 65.0 Put,abc,",
        line: 4,
        reason: 'PRICE "abc" is not a number',
      },
    ],
    midCycle: (csv) =>
      csv
        .split("\n")
        .filter((l) => !/^05\/(04|26)\/2026/.test(l))
        .join("\n"),
    // 420 + 188.67 + 102 + 199.68 = 910.35.
    midCycleRealised: 910.35,
  },
  {
    broker: "etrade",
    file: "etrade-transactions.csv",
    what: /^This is not an E\*TRADE transactions file: the columns .* are missing$/,
    // Commission is commission and fees together: 1.33 an option line; the call-away's shares' 0.33 is
    // the call-away's. Dates are MM/DD/YY.
    added: [
      [16, "sell_to_open", 1.2, 1.33],
      [15, "buy_to_close", 1.45, 1.33],
      [14, "sell_to_open", 2.1, 1.33],
      [13, "assignment", 0, 0],
      [11, "sell_to_open", 0.95, 1.33],
      [10, "dividend", 102, 0],
      [9, "exercise", 0, 0.33],
    ],
    skipped: 4, // the two share legs, the transfer, the broker's notice
    // Premiums 238.67 − 291.33 + 418.67 + 188.67 = 554.68; shares 200 − 0.33 = 199.67; dividend 102:
    // 856.35. 856.35 ÷ 13,000 = 6.59 %; 856.35 ÷ 1,419,166.67 × 365 = 22.02 %.
    realised: 856.35,
    returnOnCapital: 0.0659,
    annualised: 0.2202,
    // (13,000 − 366.01) ÷ 200 = 63.17; − 188.67 ÷ 200 = 62.23; − 102 ÷ 200 = 61.72.
    bases: [63.17, 62.23, 61.72],
    bad: [
      {
        from: "07/20/26,07/20/26,07/21/26,Sold Short",
        to: "July 20,07/20/26,07/21/26,Sold Short",
        line: 11,
        reason: 'Activity/Trade Date "July 20" is not like 06/12/26',
      },
      {
        from: "-291.33,1.33,",
        to: "-291.33,abc,",
        line: 15,
        reason: 'Commission "abc" is not a number',
      },
    ],
    midCycle: (csv) =>
      csv
        .split("\n")
        .filter((l) => !/^05\/(04|26)\/26/.test(l))
        .join("\n"),
    // 420 + 188.67 + 102 + 199.67 = 910.34.
    midCycleRealised: 910.34,
  },
];

describe.each(CASES)("$broker files (issue 43)", (c) => {
  const csv = fixture(c.file);

  it("the KO wheel imports to its hand-checked cycle; re-importing adds nothing", async () => {
    const token = await trader();
    const res = calls.importTrades.response.parse(
      (await provider.call(calls.importTrades, { token, body: { broker: c.broker, csv } })).body,
    );
    expect(res.refused).toEqual([]);
    expect(res.skipped).toBe(c.skipped);
    expect(res.added.map((t) => [t.line, t.kind, t.price, t.fees])).toEqual(c.added);

    const journal = await journalOf(token);
    expect(journal.cycles).toHaveLength(1);
    expect(journal.cycles[0]).toMatchObject({
      opened_at: "2026-05-04T16:00:00.000Z",
      closed_at: "2026-08-21T20:00:00.000Z",
      realised_pnl: c.realised,
      capital: 13000,
      collateral_days: 1419167,
      return_on_capital: c.returnOnCapital,
      annualised_return: c.annualised,
    });
    expect(journal.cycles[0]!.steps.map((s) => [s.kind, s.adjusted_cost_basis])).toEqual([
      ["sell_to_open", null],
      ["buy_to_close", null],
      ["sell_to_open", null],
      ["assignment", c.bases[0]],
      ["sell_to_open", c.bases[1]],
      ["dividend", c.bases[2]],
      ["exercise", null],
    ]);
    // The roll is stored as one: the July put rolls the June one.
    const btc = journal.rows.find((r) => r.kind === "buy_to_close")!;
    expect(journal.rows.find((r) => r.expiry === "2026-07-17" && r.kind === "sell_to_open")!.rolled_from).toBe(btc.id);
    expect(journal.rows.every((r) => r.source === c.broker)).toBe(true);

    const again = calls.importTrades.response.parse(
      (await provider.call(calls.importTrades, { token, body: { broker: c.broker, csv } })).body,
    );
    expect(again.added).toEqual([]);
    expect(again.duplicates).toHaveLength(c.added.length);
    expect((await journalOf(token)).rows).toHaveLength(c.added.length);
  });

  it("a bad line gets its reason; another broker's file is refused whole; nothing is added", async () => {
    const token = await trader();
    for (const bad of c.bad) {
      expect(csv).toContain(bad.from);
      const preview = calls.previewImport.response.parse(
        (
          await provider.call(calls.previewImport, {
            token,
            body: { broker: c.broker, csv: csv.replace(bad.from, bad.to) },
          })
        ).body,
      );
      expect(preview.refused).toContainEqual({ line: bad.line, reason: bad.reason });
    }
    const other = await provider.call(calls.importTrades, {
      token,
      body: { broker: c.broker, csv: fixture("ibkr-ko-wheel.csv") },
    });
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(c.what);
    expect((await provider.call(calls.listTrades, { token })).body).toEqual([]);
  });

  it("a file that starts mid-cycle asks for the open put's price, then the cycle adds up", async () => {
    const token = await trader();
    const partial = c.midCycle(csv);
    const preview = calls.previewImport.response.parse(
      (await provider.call(calls.previewImport, { token, body: { broker: c.broker, csv: partial } })).body,
    );
    expect(preview.openings).toEqual([
      {
        key: "KO|put|65|2026-07-17",
        kind: "sell_to_open",
        ticker: "KO",
        option_type: "put",
        strike: 65,
        expiry: "2026-07-17",
        quantity: 2,
        traded_at: "2026-07-17T19:59:59.000Z",
        price: null,
      },
    ]);
    const body = { broker: c.broker, csv: partial, openings: { "KO|put|65|2026-07-17": 2.1 } };
    const res = calls.importTrades.response.parse((await provider.call(calls.importTrades, { token, body })).body);
    expect(res.refused).toEqual([]);
    expect((await journalOf(token)).cycles.map((cycle) => cycle.realised_pnl)).toEqual([c.midCycleRealised]);
  });
});
