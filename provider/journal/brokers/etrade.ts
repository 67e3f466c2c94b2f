import { brokerNumber, columns, type CsvLine, type ParsedLine } from "./csv.ts";
import { cents, closeOf, noonOf, ShareLegs, usDay } from "./day-only.ts";

/**
 * E*TRADE, Accounts → Transactions → Download (DownloadTxnHistory.csv, the "All Transactions" layout):
 * a few title lines, then Activity/Trade Date,Transaction Date,Settlement Date,Activity Type,Description,
 * Symbol,Cusip,Quantity #,Price $,Amount $,Commission,Category,Note, newest first, and the broker's
 * notice after a blank line. Activity Type says what was done ("Sold Short" opens an option, "Bought To
 * Cover" closes it); an option's Description is like "PUT  KO     06/12/26    65.000". Commission is
 * the line's commission and fees together (docs/decisions/0096-us-broker-csv-imports.md).
 * Days only, read as Schwab's (ADR 0074). The older layout (TransactionDate,TransactionType,SecurityType,...)
 * is not read.
 */
const REQUIRED = [
  "Activity/Trade Date",
  "Activity Type",
  "Description",
  "Symbol",
  "Quantity #",
  "Price $",
  "Amount $",
  "Commission",
];
const OPTION = /^(PUT|CALL)\s+([A-Z0-9.]+)\s+(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})\s+(\d+(?:\.\d+)?)/i;
const NOT_TRADES = /transfer|interest|deposit|withdraw|fee|journal|wire|ach|adjustment|sweep/i;

export function* parseEtrade(records: readonly CsvLine[]): Generator<ParsedLine> {
  const headerAt = records.findIndex((r) => r.cells.includes("Activity Type") && r.cells.includes("Amount $"));
  const header = records[headerAt] ?? records[0];
  const col = columns(header?.cells ?? [], REQUIRED, "an E*TRADE transactions file");
  const cell = (cells: string[], name: string) => {
    const value = cells[col.get(name)!] ?? "";
    return value === "--" ? "" : value;
  };
  const body = records.slice(headerAt + 1);
  const dateOf = (cells: string[]) => usDay(cell(cells, "Activity/Trade Date"));
  const feesOf = (cells: string[]) => Math.abs(brokerNumber(cell(cells, "Commission") || "0"));

  const legs = new ShareLegs();
  for (const { cells } of body) {
    const m = OPTION.exec(cell(cells, "Description"));
    if (m && /assign|exercise/i.test(cell(cells, "Activity Type"))) legs.assigned(m[2]!, dateOf(cells), Number(m[6]));
  }
  for (const { cells } of body) {
    if (!/^(Bought|Sold)$/i.test(cell(cells, "Activity Type"))) continue;
    legs.addFees(cell(cells, "Symbol"), dateOf(cells), brokerNumber(cell(cells, "Price $")), feesOf(cells));
  }

  const read = ({ line, cells, text }: CsvLine): ParsedLine => {
    const base = { line, text };
    const type = cell(cells, "Activity Type");
    // The broker's notice after the rows has no Activity Type.
    if (type === "") return { ...base, skipped: true };
    const day = dateOf(cells);
    if (!day)
      return { ...base, refused: `Activity/Trade Date "${cell(cells, "Activity/Trade Date")}" is not like 06/12/26` };
    const symbol = cell(cells, "Symbol");
    const amount = brokerNumber(cell(cells, "Amount $") || "0");
    if (/dividend|cash in lieu/i.test(type)) {
      if (!Number.isFinite(amount) || amount <= 0)
        return { ...base, refused: `Amount $ "${cell(cells, "Amount $")}" is not a dividend received` };
      return {
        ...base,
        trade: { kind: "dividend", ticker: symbol, quantity: 1, price: amount, fees: 0, traded_at: noonOf(day) },
      };
    }
    const m = OPTION.exec(cell(cells, "Description"));
    if (!m && !/^(Bought|Sold)$/i.test(type)) {
      if (NOT_TRADES.test(type)) return { ...base, skipped: true };
      return { ...base, refused: `Activity Type "${type}" is not a trade the wheel journal keeps` };
    }
    const quantity = Math.abs(brokerNumber(cell(cells, "Quantity #")));
    if (!Number.isFinite(quantity) || quantity === 0)
      return { ...base, refused: `Quantity # "${cell(cells, "Quantity #")}" is not a number other than 0` };
    const fees = feesOf(cells);
    if (!Number.isFinite(fees))
      return { ...base, refused: `Commission "${cell(cells, "Commission")}" is not a number` };
    const price = brokerNumber(cell(cells, "Price $") || "0");
    if (!Number.isFinite(price) || price < 0)
      return { ...base, refused: `Price $ "${cell(cells, "Price $")}" is not a number` };

    if (m) {
      const year = m[5]!.length === 2 ? `20${m[5]}` : m[5]!;
      const option = {
        ticker: m[2]!,
        option_type: m[1]!.toUpperCase() === "PUT" ? "put" : "call",
        strike: Number(m[6]),
        expiry: `${year}-${m[3]!.padStart(2, "0")}-${m[4]!.padStart(2, "0")}`,
        quantity,
      };
      if (/^(Sold Short|Sold To Open)$/i.test(type))
        return {
          ...base,
          trade: { kind: "sell_to_open", ...option, price, fees: cents(fees), traded_at: noonOf(day) },
        };
      if (/^(Bought To Cover|Bought To Close)$/i.test(type))
        return {
          ...base,
          trade: { kind: "buy_to_close", ...option, price, fees: cents(fees), traded_at: noonOf(day) },
        };
      if (/expir/i.test(type))
        return { ...base, trade: { kind: "expire", ...option, price: 0, fees: cents(fees), traded_at: closeOf(day) } };
      if (/assign|exercise/i.test(type))
        return {
          ...base,
          trade: {
            kind: option.option_type === "put" ? "assignment" : "exercise",
            ...option,
            price: 0,
            fees: cents(fees + legs.feesOf(option.ticker, day, option.strike)),
            traded_at: closeOf(day),
          },
        };
      return {
        ...base,
        refused: `"${type}" of an option is not part of the wheel journal (short puts and calls only)`,
      };
    }
    if (legs.isLeg(symbol, day, price)) return { ...base, skipped: true };
    return {
      ...base,
      trade: {
        kind: /^Sold$/i.test(type) ? "stock_sell" : "stock_buy",
        ticker: symbol,
        quantity,
        price,
        fees: cents(fees),
        traded_at: noonOf(day),
      },
    };
  };
  for (const record of body) yield read(record);
}
