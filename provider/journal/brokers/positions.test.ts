import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readCsv } from "./csv.ts";
import { flexPositions, parseIbkrFlex } from "./ibkr-flex.ts";
import { ibkrPositions } from "./ibkr-positions.ts";
import { parseOfxStatement } from "./ofx.ts";
import { schwabPositions } from "./schwab-positions.ts";
import { tastytradePositions } from "./tastytrade-positions.ts";

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url), "utf8");
const NOW = Date.parse("2026-11-28T12:00:00Z");

describe("Interactive Brokers' Open Positions", () => {
  it("reads each Summary line, short options negative, as of the end of the statement's last day in New York", async () => {
    const { records } = await readCsv(fixture("ibkr-open-positions.csv"));
    expect(ibkrPositions(records, NOW)).toEqual({
      // 31 March 23:59:59 EDT.
      as_of: "2026-04-01T03:59:59.000Z",
      positions: [
        { ticker: "KO", kind: "shares", option_type: null, strike: null, expiry: null, quantity: 100, cost_basis: 50 },
        {
          ticker: "MSFT",
          kind: "shares",
          option_type: null,
          strike: null,
          expiry: null,
          quantity: 10,
          cost_basis: 400.6,
        },
        {
          ticker: "KO",
          kind: "option",
          option_type: "call",
          strike: 62.5,
          expiry: "2026-04-17",
          quantity: -1,
          cost_basis: 0.85,
        },
      ],
      cash: null,
      refused: [],
    });
  });

  it("the Cash Report's Ending Cash of the base currency is the account's cash; an unreadable one is refused", async () => {
    const cashReport = [
      "Cash Report,Header,Currency Summary,Currency,Total,Securities,Futures,Month to Date,Year to Date,",
      "Cash Report,Data,Starting Cash,Base Currency Summary,9000,9000,0,,,",
      'Cash Report,Data,Ending Cash,Base Currency Summary,"12,345.67",12345.67,0,,,',
      "Cash Report,Data,Ending Cash,USD,12345.67,12345.67,0,,,",
      "",
    ].join("\n");
    const withCash = fixture("ibkr-open-positions.csv") + cashReport;
    expect(ibkrPositions((await readCsv(withCash)).records, NOW)).toMatchObject({ cash: 12345.67, refused: [] });
    const bad = withCash.replace('"12,345.67"', "n/a");
    expect(ibkrPositions((await readCsv(bad)).records, NOW)!.refused).toEqual([
      { line: 32, reason: 'Cash Report: Ending Cash "n/a" is not a number' },
    ]);
  });

  it("a statement without the section lists no positions; a line it cannot read is refused with its number", async () => {
    expect(ibkrPositions((await readCsv(fixture("ibkr-activity-statement.csv"))).records, NOW)).toBeNull();
    const bad = fixture("ibkr-open-positions.csv").replace("KO 17APR26 62.5 C,-1", "KO APR26 62.5 C,-1");
    const read = ibkrPositions((await readCsv(bad)).records, NOW);
    expect(read!.refused).toEqual([
      { line: 28, reason: 'Open position: option symbol "KO APR26 62.5 C" is not like "KO 30JAN26 50 P"' },
    ]);
    const zero = fixture("ibkr-open-positions.csv").replace("MSFT,10,", "MSFT,0,");
    expect(ibkrPositions((await readCsv(zero)).records, NOW)!.refused).toEqual([
      { line: 25, reason: "Open position: quantity: A position of 0 is no position" },
    ]);
  });
});

it("OFX: INVPOSLIST's stocks and options, SHORT negative, as of DTASOF, without a cost", async () => {
  const { positions } = await parseOfxStatement(fixture("ofx-open-positions.ofx"), undefined, NOW);
  expect(positions).toEqual({
    as_of: "2026-08-31T20:00:00.000Z",
    positions: [
      { ticker: "KO", kind: "shares", option_type: null, strike: null, expiry: null, quantity: 100, cost_basis: null },
      {
        ticker: "KO",
        kind: "option",
        option_type: "call",
        strike: 66,
        expiry: "2026-08-21",
        quantity: -1,
        cost_basis: null,
      },
    ],
    // INVBAL's AVAILCASH.
    cash: 3200,
    refused: [],
  });
  expect((await parseOfxStatement(fixture("ofx-ko-wheel.ofx"))).positions).toBeNull();
  const bad = fixture("ofx-open-positions.ofx").replace("<AVAILCASH>3200.00", "<AVAILCASH>lots");
  expect((await parseOfxStatement(bad, undefined, NOW)).positions!.refused).toEqual([
    { line: 155, reason: 'AVAILCASH "lots" is not a number' },
  ]);
});

/** The book the KO fixtures of each broker hold on 27 November 2026: 100 shares, two short Dec 62.5 puts. */
const KO_SHARES = {
  ticker: "KO",
  kind: "shares",
  option_type: null,
  strike: null,
  expiry: null,
  quantity: 100,
  cost_basis: 50.01,
} as const;
const KO_PUTS = {
  ticker: "KO",
  kind: "option",
  option_type: "put",
  strike: 62.5,
  expiry: "2026-12-18",
  quantity: -2,
  // $190 received less $1.05 commission, over 200 shares.
  cost_basis: 0.94475,
} as const;

describe("Interactive Brokers' Flex Query", () => {
  it("reads the Open Positions section's SUMMARY rows and the Cash Report's base EndingCash, as of the ReportDate's end", async () => {
    const { records } = await readCsv(fixture("ibkr-flex-positions.csv"));
    expect(flexPositions(records, NOW)).toEqual({
      // 27 November 23:59:59 EST; the bond line is outside the wheel's book.
      as_of: "2026-11-28T04:59:59.000Z",
      positions: [KO_SHARES, KO_PUTS],
      cash: 13250.4,
      refused: [],
    });
  });

  it("without section codes, each section its own header row, the same book and the same trades", async () => {
    const coded = fixture("ibkr-flex-positions.csv");
    const plain = coded
      .split("\n")
      .filter((l) => /^"(HEADER|DATA)"/.test(l))
      .map((l) => l.replace(/^"(HEADER|DATA)","[A-Z]{4}",/, ""))
      .join("\n");
    const codedRecords = (await readCsv(coded)).records;
    const plainRecords = (await readCsv(plain)).records;
    expect(flexPositions(plainRecords, NOW)).toEqual(flexPositions(codedRecords, NOW));
    const tradesOf = (records: typeof codedRecords) =>
      [...parseIbkrFlex(records)].flatMap((l) => ("trade" in l ? [{ ...l.trade, text: l.text }] : []));
    // The same trades with the same text, so an import of one layout recognises the other's lines.
    expect(tradesOf(plainRecords)).toEqual(tradesOf(codedRecords));
    expect(tradesOf(codedRecords).map((t) => (t as { kind?: unknown }).kind)).toEqual(["stock_buy", "sell_to_open"]);
  });

  it("a trades-only query lists no positions; a line it cannot read is refused with its number", async () => {
    expect(flexPositions((await readCsv(fixture("ibkr-flex-ko-wheel.csv"))).records, NOW)).toBeNull();
    const bad = fixture("ibkr-flex-positions.csv").replace(
      '"62.5","20261218","P","20261127"',
      '"62.5","Dec 26","P","20261127"',
    );
    expect(flexPositions((await readCsv(bad)).records, NOW)!.refused).toEqual([
      { line: 12, reason: 'Open position: Expiry "Dec 26" is not like 20260130' },
    ]);
  });
});

describe("tastytrade's positions export", () => {
  it("reads stocks and options, short negative, Trade Price as the cost a share, as of the import", async () => {
    const { records } = await readCsv(fixture("tastytrade-positions.csv"));
    expect(tastytradePositions(records, NOW)).toEqual({
      as_of: new Date(NOW).toISOString(),
      // The future is outside the wheel's book; the file states no cash.
      positions: [KO_SHARES, KO_PUTS],
      cash: null,
      refused: [],
    });
    expect(tastytradePositions((await readCsv(fixture("tastytrade-transactions.csv"))).records, NOW)).toBeNull();
  });

  it("a line it cannot read is refused with its number and why", async () => {
    const bad = fixture("tastytrade-positions.csv").replace("-2,12/18/26", "-2,December");
    expect(tastytradePositions((await readCsv(bad)).records, NOW)!.refused).toEqual([
      { line: 3, reason: 'Open position: Exp Date "December" is not like 12/18/26' },
    ]);
  });
});

describe("Schwab's positions export", () => {
  it("reads stocks and options (cost a share from the position's Cost Basis), the cash line, as of the title's time", async () => {
    const { records } = await readCsv(fixture("schwab-positions.csv"));
    expect(schwabPositions(records, NOW)).toEqual({
      // 04:10 PM ET on 27 November 2026; the money-market fund is not a wheel position.
      as_of: "2026-11-27T21:10:00.000Z",
      positions: [KO_SHARES, KO_PUTS],
      cash: 13250.4,
      refused: [],
    });
    expect(schwabPositions((await readCsv(fixture("schwab-transactions.csv"))).records, NOW)).toBeNull();
  });

  it("an all-accounts file sums each account's positions and cash; an older title gives the day's end", async () => {
    const one = fixture("schwab-positions.csv");
    const two = one + one.replace("Individual ...123", "Roth IRA ...456");
    const read = schwabPositions(
      (await readCsv(two.replace(/as of 04:10 PM ET, 2026\/11\/27/g, "as of 11/27/2026"))).records,
      NOW,
    )!;
    expect(read.as_of).toBe("2026-11-28T04:59:59.000Z");
    expect(read.positions).toEqual([KO_SHARES, KO_PUTS, KO_SHARES, KO_PUTS]);
    expect(read.cash).toBe(26500.8);
  });

  it("a line it cannot read is refused with its number and why", async () => {
    const bad = fixture("schwab-positions.csv").replace('"KO 12/18/2026 62.50 P"', '"KO DEC 62.50 P"');
    expect(schwabPositions((await readCsv(bad)).records, NOW)!.refused).toEqual([
      { line: 5, reason: 'Open position: option symbol "KO DEC 62.50 P" is not like "KO 12/18/2026 62.50 P"' },
    ]);
  });
});
