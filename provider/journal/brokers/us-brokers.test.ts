import { describe, expect, it } from "vitest";
import { readCsv, type ParsedLine } from "./csv.ts";
import { parseEtrade } from "./etrade.ts";
import { parseFidelity } from "./fidelity.ts";
import { parseRobinhood } from "./robinhood.ts";
import { parseTdAmeritrade } from "./td-ameritrade.ts";

/**
 * The lines of ADR 0096's layouts the KO fixtures do not hold: expiries, options bought to open, and
 * Fidelity's three ways of writing an "as of" day (docs/decisions/0096-us-broker-csv-imports.md).
 */
async function lines(
  parse: (records: Awaited<ReturnType<typeof readCsv>>["records"]) => Iterable<ParsedLine>,
  csv: string,
) {
  return [...parse((await readCsv(csv)).records)].map((l) =>
    "trade" in l ? l.trade : "refused" in l ? { refused: l.refused } : "skipped",
  );
}
const put = { ticker: "KO", option_type: "put", strike: 62.5, quantity: 1, price: 0, fees: 0 };

describe("expiries and lines the wheel journal does not keep", () => {
  it("Robinhood: OEXP expires the put at 16:00 New York; a BTO is refused with the reason", async () => {
    const csv = [
      "Activity Date,Process Date,Settle Date,Instrument,Description,Trans Code,Quantity,Price,Amount",
      "6/12/2026,6/12/2026,6/15/2026,KO,Option Expiration for KO 6/12/2026 Put $62.50,OEXP,1,,",
      "6/1/2026,6/1/2026,6/2/2026,KO,KO 6/12/2026 Put $62.50,BTO,1,$0.50,($50.00)",
    ].join("\n");
    expect(await lines(parseRobinhood, csv)).toEqual([
      { kind: "expire", ...put, expiry: "2026-06-12", traded_at: "2026-06-12T20:00:00.000Z" },
      { refused: 'Trans Code "BTO" of an option is not part of the wheel journal (short puts and calls only)' },
    ]);
  });

  it("Fidelity: an expiry on its as-of day, whichever of the three ways it is written", async () => {
    const header =
      "Run Date,Action,Symbol,Description,Type,Quantity,Price ($),Commission ($),Fees ($),Accrued Interest ($),Amount ($),Settlement Date";
    const expired = (asOf: string) =>
      `06/15/2026,"EXPIRED PUT (KO) COCA COLA CO JUN 12 26 $62.5 ${asOf}", -KO260612P62.5,"PUT (KO)",Cash,1,,,,,0.00,`;
    const csv = [header, expired("as of Jun-12-2026"), expired("as of 2026-06-12"), expired("as of 06-12-26")].join(
      "\n",
    );
    const at = { kind: "expire", ...put, expiry: "2026-06-12", traded_at: "2026-06-12T20:00:00.000Z" };
    expect(await lines(parseFidelity, csv)).toEqual([at, at, at]);
  });

  it("TD Ameritrade: REMOVAL OF OPTION DUE TO EXPIRATION expires the put; cash lines are skipped", async () => {
    const csv = [
      "DATE,TRANSACTION ID,DESCRIPTION,QUANTITY,SYMBOL,PRICE,COMMISSION,AMOUNT,REG FEE",
      "06/12/2026,1,REMOVAL OF OPTION DUE TO EXPIRATION (0KO.RC60062500),1,KO Jun 12 2026 62.5 Put,,,0.00,",
      "06/12/2026,2,FREE BALANCE INTEREST ADJUSTMENT,,,,,0.12,",
    ].join("\n");
    expect(await lines(parseTdAmeritrade, csv)).toEqual([
      { kind: "expire", ...put, expiry: "2026-06-12", traded_at: "2026-06-12T20:00:00.000Z" },
      "skipped",
    ]);
  });

  it("E*TRADE: Option Expired expires the put; Bought To Open is refused with the reason", async () => {
    const csv = [
      "Activity/Trade Date,Transaction Date,Settlement Date,Activity Type,Description,Symbol,Cusip,Quantity #,Price $,Amount $,Commission,Category,Note",
      "06/12/26,06/12/26,06/15/26,Option Expired,PUT  KO     06/12/26    62.500,KO,--,1.0,--,0.00,0.00,--,--",
      "06/01/26,06/01/26,06/02/26,Bought To Open,PUT  KO     06/12/26    62.500,KO,--,1.0,0.50,-50.65,0.65,--,--",
    ].join("\n");
    expect(await lines(parseEtrade, csv)).toEqual([
      { kind: "expire", ...put, expiry: "2026-06-12", traded_at: "2026-06-12T20:00:00.000Z" },
      { refused: '"Bought To Open" of an option is not part of the wheel journal (short puts and calls only)' },
    ]);
  });
});
