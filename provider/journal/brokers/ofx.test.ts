import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CsvFormatError } from "./csv.ts";
import { ofxInstant, parseOfx } from "./ofx.ts";

/** OFX/QFX investment statements (issue 43; docs/decisions/0089-ofx-investment-statements.md). */
const XML = readFileSync(new URL("fixtures/ofx-ko-wheel.ofx", import.meta.url), "utf8");
/** The same statement as OFX 1.x SGML: a key-value header, and leaf elements without end tags. */
const SGML =
  "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\n\n" +
  XML.slice(XML.indexOf("<OFX>")).replace(/(<([A-Z0-9.]+)>[^<]+)<\/\2>/g, "$1");

const ko = (option_type: "put" | "call", strike: number, expiry: string) => ({
  ticker: "KO",
  option_type,
  strike,
  expiry,
});
/** The fixture's transactions as the journal should read them, worked out from the file by hand. */
const EXPECTED = [
  // SELLOPT SELLTOOPEN, UNITS −2 at 1.20, COMMISSION 1.00 + FEES 0.05; 10:15 at −4 (EDT) is 14:15Z.
  {
    kind: "sell_to_open",
    ...ko("put", 65, "2026-06-12"),
    quantity: 2,
    price: 1.2,
    fees: 1.05,
    traded_at: "2026-05-04T14:15:00.000Z",
  },
  {
    kind: "buy_to_close",
    ...ko("put", 65, "2026-06-12"),
    quantity: 2,
    price: 1.45,
    fees: 1.05,
    traded_at: "2026-05-26T15:02:00.000Z",
  },
  {
    kind: "sell_to_open",
    ...ko("put", 65, "2026-07-17"),
    quantity: 2,
    price: 2.1,
    fees: 1.05,
    traded_at: "2026-05-26T15:02:00.000Z",
  },
  // CLOSUREOPT ASSIGN of the put; its fee is the COMMISSION 0.17 of the BUYSTOCK its RELFITID names.
  {
    kind: "assignment",
    ...ko("put", 65, "2026-07-17"),
    quantity: 2,
    price: 0,
    fees: 0.17,
    traded_at: "2026-07-17T20:20:00.000Z",
  },
  {
    kind: "sell_to_open",
    ...ko("call", 66, "2026-08-21"),
    quantity: 2,
    price: 0.95,
    fees: 1.05,
    traded_at: "2026-07-20T14:05:00.000Z",
  },
  // INCOME DIV, TOTAL 102.00, dated 20260731 without a time: the market's close, 16:00 EDT.
  { kind: "dividend", ticker: "KO", quantity: 1, price: 102, fees: 0, traded_at: "2026-07-31T20:00:00.000Z" },
  // CLOSUREOPT ASSIGN of the call: called away; the SELLSTOCK's COMMISSION 0.17.
  {
    kind: "exercise",
    ...ko("call", 66, "2026-08-21"),
    quantity: 2,
    price: 0,
    fees: 0.17,
    traded_at: "2026-08-21T20:20:00.000Z",
  },
];

const trades = (lines: Awaited<ReturnType<typeof parseOfx>>) => lines.flatMap((l) => ("trade" in l ? [l.trade] : []));

describe("OFX investment statements", () => {
  it("OFX 2.2 XML: options from the SECLIST, assignments with their share legs' fees, a dividend", async () => {
    const lines = await parseOfx(XML);
    expect(trades(lines)).toEqual(EXPECTED);
    // The share legs (BUYSTOCK KO-5, SELLSTOCK KO-10) and the interest (INVBANKTRAN) are not trades of their own.
    expect(lines.filter((l) => "skipped" in l).map((l) => l.text)).toEqual([
      "OFX BUYSTOCK FITID KO-5",
      "OFX INVBANKTRAN FITID KO-8",
      "OFX SELLSTOCK FITID KO-10",
    ]);
    expect(lines[0]).toMatchObject({ line: 31, text: "OFX SELLOPT FITID KO-1" });
  });

  it("OFX 1.x SGML (no end tags on leaves) reads to the same trades, numbered by its own lines", async () => {
    const lines = await parseOfx(SGML);
    expect(trades(lines)).toEqual(EXPECTED);
    expect(lines[0]).toMatchObject({ line: 36, text: "OFX SELLOPT FITID KO-1" });
  });

  it("reads OFX dates with and without a zone", () => {
    expect(ofxInstant("20260504101500.000[-4:EDT]")).toBe("2026-05-04T14:15:00.000Z");
    expect(ofxInstant("20260105103112[-5:EST]")).toBe("2026-01-05T15:31:12.000Z");
    expect(ofxInstant("20260105103112[+5.30:IST]")).toBe("2026-01-05T05:01:12.000Z");
    // No zone: the spec's default, GMT.
    expect(ofxInstant("20260105103112")).toBe("2026-01-05T10:31:12.000Z");
    // A date alone: 16:00 New York time (EST in January).
    expect(ofxInstant("20260105")).toBe("2026-01-05T21:00:00.000Z");
    expect(ofxInstant("May 4")).toBeNull();
    expect(ofxInstant("20260231120000")).toBeNull();
  });
});

describe("bad OFX files", () => {
  it("a file that is not OFX, or has no investment statement, is refused whole with the reason", async () => {
    await expect(parseOfx("Date,Action\n1/2/26,Buy\n")).rejects.toThrow(
      new CsvFormatError("This is not an OFX or QFX file: it has no <OFX> element"),
    );
    const bank =
      "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<TRNAMT>-5</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>";
    await expect(parseOfx(bank)).rejects.toThrow(
      "This OFX file has no investment statement (INVSTMTRS): export the brokerage account's statement, not a bank one",
    );
    await expect(parseOfx(`<OFX>${"<A>".repeat(100)}`)).rejects.toThrow("its elements nest more than 64 deep");
  });

  it("a file cut short: the transaction it ends in and the options it never describes get reasons per line", async () => {
    // Cut inside the call's SELLOPT (KO-6), before the SECLIST.
    const cut = XML.slice(0, XML.indexOf("<OPTSELLTYPE>", XML.indexOf("KO-6")));
    const lines = await parseOfx(cut);
    const refused = lines.flatMap((l) => ("refused" in l ? [[l.line, l.refused]] : []));
    expect(refused).toEqual([
      [31, "Security CUSIP:KO260612P65 is not described in the file's SECLIST (is the file cut short?)"],
      [46, "Security CUSIP:KO260612P65 is not described in the file's SECLIST (is the file cut short?)"],
      [61, "Security CUSIP:KO260717P65 is not described in the file's SECLIST (is the file cut short?)"],
      [76, "Security CUSIP:KO260717P65 is not described in the file's SECLIST (is the file cut short?)"],
      [98, "The file ends inside this transaction (is it cut short?)"],
    ]);
  });

  it("an unknown security, a bad date, a long option's exercise and a buy to open each get their reason", async () => {
    const bad = XML.replace("20260526110200.000[-4:EDT]", "May 26")
      .replace("<OPTACTION>ASSIGN</OPTACTION>", "<OPTACTION>EXERCISE</OPTACTION>")
      .replace("<OPTSELLTYPE>SELLTOOPEN</OPTSELLTYPE>", "<OPTSELLTYPE>SELLTOCLOSE</OPTSELLTYPE>");
    const lines = await parseOfx(bad);
    const refused = lines.flatMap((l) => ("refused" in l ? [[l.line, l.refused]] : []));
    expect(refused).toEqual([
      [31, 'SELLOPT of type "SELLTOCLOSE" is not part of the wheel journal (short puts and calls only)'],
      [46, 'DTTRADE "May 26" is not an OFX date like 20260504101500.000[-4:EDT]'],
      [
        76,
        'OPTACTION "EXERCISE" (a long option exercised) is not part of the wheel journal (short puts and calls only)',
      ],
    ]);
    // The first SECID replaced is the first SELLOPT's; its OPTINFO now describes an unknown option.
    const unknown = XML.replace(/<UNIQUEID>KO260612P65<\/UNIQUEID>/, "<UNIQUEID>XX0000000</UNIQUEID>");
    expect((await parseOfx(unknown))[0]).toMatchObject({
      line: 31,
      refused: "Security CUSIP:XX0000000 is not described in the file's SECLIST (is the file cut short?)",
    });
  });
});

describe("reading a large OFX file", () => {
  it("reads it 16 kB at a time, letting other work run between the slices", async () => {
    // About 900 kB that is almost all SECLIST: few transactions, so the yields counted are the reading's.
    const securities = Array.from(
      { length: 6_000 },
      (_, i) =>
        `<STOCKINFO><SECINFO><SECID><UNIQUEID>S${i}</UNIQUEID><UNIQUEIDTYPE>TICKER</UNIQUEIDTYPE></SECID><TICKER>S${i}</TICKER></SECINFO></STOCKINFO>`,
    ).join("\n");
    const big = XML.replace("</SECLIST>", `${securities}</SECLIST>`);
    let yields = 0;
    const lines = await parseOfx(big, () => {
      yields += 1;
      return new Promise<void>((resolve) => setImmediate(resolve));
    });
    expect(trades(lines)).toEqual(EXPECTED);
    // One yield per 16 kB slice read, then one per closure and per transaction (2 + 10).
    expect(yields).toBeGreaterThanOrEqual(Math.floor(big.slice(big.indexOf("<OFX>")).length / 16_384));
    expect(big.length).toBeGreaterThan(800_000);
  });
});
