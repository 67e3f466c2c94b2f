import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readCsv } from "./csv.ts";
import { ibkrPositions } from "./ibkr-positions.ts";
import { parseOfxStatement } from "./ofx.ts";

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
      refused: [],
    });
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
    refused: [],
  });
  expect((await parseOfxStatement(fixture("ofx-ko-wheel.ofx"))).positions).toBeNull();
});
