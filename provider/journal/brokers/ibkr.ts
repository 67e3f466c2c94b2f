import { brokerNumber, columns, CsvFormatError, type CsvLine, type ParsedLine } from "./csv.ts";
import { isFlexQuery, parseIbkrFlex } from "./ibkr-flex.ts";
import { zonedToIso } from "./zone.ts";

/**
 * Interactive Brokers, Activity Statement exported as CSV: each line starts with its section and
 * kind ("Trades,Header,…", "Trades,Data,…"). Only the Trades section's Data/Order lines are read;
 * the Code column says what a line did: O opening, C closing, A assignment, Ep expired, Ex exercised.
 * An assignment's or call-away's share line (code A or Ex) is the share side of the option line: not a
 * trade of its own, but its commission is the option line's (issue 43). Times are US Eastern, the
 * statement's own clock. The Dividends section's lines are dividend entries (ADR 0074).
 */
const REQUIRED = [
  "DataDiscriminator",
  "Asset Category",
  "Symbol",
  "Date/Time",
  "Quantity",
  "T. Price",
  "Comm/Fee",
  "Code",
];
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

export function* parseIbkr(records: readonly CsvLine[]): Generator<ParsedLine> {
  const header = records.find((r) => r.cells[0] === "Trades" && r.cells[1] === "Header");
  // A Flex Query's Trades section is read too (issue 43): it starts with its column names.
  if (!header && isFlexQuery(records)) {
    yield* parseIbkrFlex(records);
    return;
  }
  if (!header)
    throw new CsvFormatError("This is not an Interactive Brokers activity statement: it has no Trades section");
  const col = columns(header.cells, REQUIRED, "an Interactive Brokers activity statement");
  const cell = (cells: string[], name: string) => cells[col.get(name)!] ?? "";
  const codesOf = (cells: string[]) =>
    cell(cells, "Code")
      .split(";")
      .map((c) => c.trim());

  // Commissions of the share lines of assignments and call-aways, by ticker and time.
  const shareLegFees = new Map<string, number>();
  for (const { cells } of records) {
    if (cells[0] !== "Trades" || cells[1] !== "Data" || !/stock/i.test(cell(cells, "Asset Category"))) continue;
    const codes = codesOf(cells);
    const fee = brokerNumber(cell(cells, "Comm/Fee") || "0");
    if (!(codes.includes("A") || codes.includes("Ex")) || !Number.isFinite(fee)) continue;
    const key = `${cell(cells, "Symbol")}|${cell(cells, "Date/Time")}`;
    shareLegFees.set(key, (shareLegFees.get(key) ?? 0) + Math.abs(fee));
  }

  // A line at a time, so the importer can let other requests run between lines (ADR 0073).
  const read = (record: CsvLine): ParsedLine => {
    const { line, cells, text: raw } = record;
    const base = { line, text: raw };
    if (cells[0] === "Dividends" && cells[1] === "Data") return dividendLine(base, cells);
    if (cells[0] !== "Trades" || cells[1] !== "Data" || cell(cells, "DataDiscriminator") !== "Order") {
      return { ...base, skipped: true };
    }
    const codes = codesOf(cells);
    const quantity = brokerNumber(cell(cells, "Quantity"));
    const price = brokerNumber(cell(cells, "T. Price"));
    const fee = brokerNumber(cell(cells, "Comm/Fee") || "0");
    const when = /^(\d{4}-\d{2}-\d{2}),?\s*(\d{2}:\d{2}(:\d{2})?)$/.exec(cell(cells, "Date/Time"));
    if (!when) return { ...base, refused: `Date/Time "${cell(cells, "Date/Time")}" is not like 2026-01-05, 10:31:12` };
    if (!Number.isFinite(quantity) || quantity === 0)
      return { ...base, refused: `Quantity "${cell(cells, "Quantity")}" is not a number` };
    if (!Number.isFinite(price)) return { ...base, refused: `T. Price "${cell(cells, "T. Price")}" is not a number` };
    if (!Number.isFinite(fee)) return { ...base, refused: `Comm/Fee "${cell(cells, "Comm/Fee")}" is not a number` };
    const common = {
      quantity: Math.abs(quantity),
      price: Math.abs(price),
      fees: Math.round(Math.abs(fee) * 100) / 100,
      traded_at: zonedToIso(when[1]!, when[2]!),
    };
    const category = cell(cells, "Asset Category");
    const symbol = cell(cells, "Symbol");

    if (/option/i.test(category)) {
      // "KO 30JAN26 50 P"
      const m = /^([A-Z0-9.]+)\s+(\d{2})([A-Z]{3})(\d{2})\s+(\d+(?:\.\d+)?)\s+([PC])$/.exec(symbol.toUpperCase());
      const month = m ? MONTHS.indexOf(m[3]!) : -1;
      if (!m || month < 0) return { ...base, refused: `Option symbol "${symbol}" is not like "KO 30JAN26 50 P"` };
      const option = {
        ticker: m[1]!,
        option_type: m[6] === "P" ? "put" : "call",
        strike: Number(m[5]),
        expiry: `20${m[4]}-${String(month + 1).padStart(2, "0")}-${m[2]}`,
      };
      const has = (code: string) => codes.includes(code);
      let kind: string;
      if (has("A")) kind = option.option_type === "put" ? "assignment" : "exercise";
      else if (has("Ep")) kind = "expire";
      else if (has("Ex")) return { ...base, refused: "Exercising a long option is not part of the wheel journal" };
      else if (quantity < 0 && has("O")) kind = "sell_to_open";
      else if (quantity > 0 && has("C")) kind = "buy_to_close";
      else
        return {
          ...base,
          refused: "Buying options to open or selling them to close is not part of the wheel journal",
        };
      const zeroPrice = kind === "expire" || kind === "assignment" || kind === "exercise";
      const shareLeg = kind === "assignment" || kind === "exercise";
      const fees = shareLeg
        ? common.fees + (shareLegFees.get(`${option.ticker}|${cell(cells, "Date/Time")}`) ?? 0)
        : common.fees;
      return {
        ...base,
        trade: { kind, ...option, ...common, fees: Math.round(fees * 100) / 100, ...(zeroPrice ? { price: 0 } : {}) },
      };
    }
    if (/stock/i.test(category)) {
      if (codes.includes("A") || codes.includes("Ex")) return { ...base, skipped: true };
      return { ...base, trade: { kind: quantity > 0 ? "stock_buy" : "stock_sell", ticker: symbol, ...common } };
    }
    return { ...base, refused: `Asset category "${category}" is not stocks or options` };
  };
  for (const record of records) if (record !== header) yield read(record);
}

/**
 * A line of the Dividends section ("Dividends,Data,USD,2026-03-15,KO(US1912161007) Cash Dividend USD
 * 0.51 per Share (Ordinary Dividend),51"): a dividend entry of the journal, quantity × price = the
 * amount (shares × per share when the description says it). Paid dates have no time: noon, New York.
 */
function dividendLine(base: { line: number; text: string }, cells: string[]): ParsedLine {
  const [, , currency = "", date = "", description = "", amountText = ""] = cells;
  if (currency === "Total" || /^total/i.test(currency)) return { ...base, skipped: true };
  const amount = brokerNumber(amountText);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return { ...base, refused: `Date "${date}" is not like 2026-03-15` };
  if (!Number.isFinite(amount)) return { ...base, refused: `Amount "${amountText}" is not a number` };
  if (amount <= 0)
    return { ...base, refused: "A dividend reversal is not recorded in the journal; enter the change by hand" };
  const ticker = /^([A-Z0-9.]+)\s*\(/.exec(description)?.[1];
  if (!ticker)
    return { ...base, refused: `Description "${description}" does not start with the ticker, like "KO(US1912161007)"` };
  const perShare = Number(/([\d.]+)\s+per\s+share/i.exec(description)?.[1] ?? Number.NaN);
  const shares = perShare > 0 ? Math.round(amount / perShare) : 0;
  const exact = shares > 0 && Math.abs(shares * perShare - amount) < 0.005;
  return {
    ...base,
    trade: {
      kind: "dividend",
      ticker,
      quantity: exact ? shares : 1,
      price: exact ? perShare : amount,
      fees: 0,
      traded_at: zonedToIso(date, "12:00:00"),
    },
  };
}
