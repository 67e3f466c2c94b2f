import { brokerNumber, columns, CsvFormatError, type CsvLine, type ParsedLine } from "./csv.ts";
import { positionOf, type PositionsRead } from "./positions.ts";
import { zonedToIso } from "./zone.ts";

/**
 * Interactive Brokers, a Flex Query as CSV (column headers on): each section the query selects is a
 * header row and its rows, one section after another; with "section code and line descriptor" on,
 * each row starts with HEADER or DATA and the section's code (TRNT trades, POST open positions, CRTT
 * cash report), and BOF/BOA/BOS/EOS/EOA/EOF rows frame them (docs/decisions/0098-positions-files-and-broker-cash.md).
 *
 * Trades: a row per execution. AssetClass says STK or OPT; Notes/Codes (A assignment, Ep expired,
 * Ex exercised) and Open/CloseIndicator say what an option row did, as the activity statement's Code
 * does. DateTime is "20260105;103112" (or "2026-01-05;10:31:12", as the query's date settings say),
 * on New York's clock. Share rows of assignments and call-aways are the option row's share legs:
 * their IBCommission is added to it (ADR 0074).
 */
const REQUIRED = ["AssetClass", "Symbol", "DateTime", "Quantity", "TradePrice", "IBCommission"];

/** One section of a Flex Query: its code when the file writes codes, its header and its rows. */
interface FlexSection {
  code: string | null;
  header: CsvLine;
  rows: CsvLine[];
}

const FRAME = new Set(["BOF", "BOA", "BOS", "EOS", "EOA", "EOF"]);
/** Column names every Flex section starts with one of; a data row holds values, never these names. */
const HEADER_NAMES = new Set(["ClientAccountID", "AccountAlias", "AssetClass", "CurrencyPrimary"]);
const isHeaderRow = (record: CsvLine) => record.cells.some((c) => HEADER_NAMES.has(c));

/** Whether the file is a Flex Query's CSV (with or without section codes). */
export function isFlexQuery(records: readonly CsvLine[]): boolean {
  const first = records[0];
  if (!first) return false;
  if (FRAME.has(first.cells[0]!) || first.cells[0] === "HEADER") return true;
  return isHeaderRow(first);
}

/** The file's sections in order; rows before any header belong to none and are left out. */
function flexSections(records: readonly CsvLine[]): FlexSection[] {
  const sections: FlexSection[] = [];
  const coded = records.some((r) => r.cells[0] === "HEADER");
  for (const record of records) {
    if (coded) {
      const [kind, code] = record.cells;
      // The text without its HEADER/DATA and code: a trade's import key is the same in both layouts.
      const text = record.text.replace(/^"?(?:HEADER|DATA)"?,"?[A-Z]+"?,/, "");
      const stripped = { ...record, cells: record.cells.slice(2), text };
      if (kind === "HEADER") sections.push({ code: code ?? null, header: stripped, rows: [] });
      else if (kind === "DATA") sections.findLast((s) => s.code === code)?.rows.push(stripped);
    } else if (isHeaderRow(record)) sections.push({ code: null, header: record, rows: [] });
    else sections.at(-1)?.rows.push(record);
  }
  return sections;
}

const has = (section: FlexSection, ...names: string[]) => names.every((n) => section.header.cells.includes(n));
const isTrades = (s: FlexSection) => s.code === "TRNT" || (s.code === null && has(s, "DateTime"));
const isPositions = (s: FlexSection) =>
  s.code === "POST" ||
  (s.code === null &&
    has(s, "Quantity") &&
    !has(s, "TradePrice") &&
    (has(s, "MarkPrice") || has(s, "CostBasisPrice") || has(s, "PositionValue")));
const isCash = (s: FlexSection) => s.code === "CRTT" || (s.code === null && has(s, "EndingCash"));

const dateOf = (text: string) => {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};

/**
 * A Flex Query's trade lines: its Trades sections' rows read, every other row (open positions, cash,
 * frames) a line that is not a trade. A file with neither trades nor open positions is refused.
 */
export function* parseIbkrFlex(records: readonly CsvLine[]): Generator<ParsedLine> {
  const sections = flexSections(records);
  const trades = sections.filter(isTrades);
  if (trades.length === 0 && !sections.some(isPositions)) {
    throw new CsvFormatError(
      "This Interactive Brokers Flex Query has neither a Trades nor an Open Positions section: add one to the query",
    );
  }
  // The rows the Trades sections read (their headers included); every other row is not a trade.
  const tradeRows = new Set<number>();
  for (const section of trades) {
    tradeRows.add(section.header.line);
    for (const row of section.rows) tradeRows.add(row.line);
    yield* tradesSection([section.header, ...section.rows]);
  }
  for (const record of records) {
    if (!tradeRows.has(record.line)) yield { line: record.line, text: record.text, skipped: true };
  }
}

/**
 * A Flex Query's Open Positions (ADR 0098): a SUMMARY row a position (LOT rows break it down and are
 * not read), Quantity negative when short, CostBasisPrice a share (an option's premium a share), as of
 * the end of the latest ReportDate in New York. The cash is the Cash Report's EndingCash of the base
 * currency (BASE_SUMMARY; a USD row stands in). Null when the query has no Open Positions section.
 */
export function flexPositions(records: readonly CsvLine[], now: number): PositionsRead | null {
  const sections = flexSections(records);
  const held = sections.filter(isPositions);
  if (held.length === 0) return null;
  const read: PositionsRead = { as_of: new Date(now).toISOString(), positions: [], cash: null, refused: [] };
  let reportDay = "";
  for (const section of held) {
    const index = new Map(section.header.cells.map((name, i) => [name, i]));
    for (const { line, cells } of section.rows) {
      const cell = (name: string) => (index.has(name) ? (cells[index.get(name)!] ?? "") : "");
      const level = cell("LevelOfDetail").toUpperCase();
      if (level && level !== "SUMMARY") continue;
      const day = dateOf(cell("ReportDate"));
      if (day && day > reportDay) reportDay = day;
      const quantity = brokerNumber(cell("Quantity"));
      const multiplier = brokerNumber(cell("Multiplier") || "1");
      const price = brokerNumber(cell("CostBasisPrice"));
      const money = brokerNumber(cell("CostBasisMoney"));
      const cost = Number.isFinite(price)
        ? Math.abs(price)
        : Number.isFinite(money) && quantity
          ? Math.round((Math.abs(money) / Math.abs(quantity * multiplier)) * 1e6) / 1e6
          : null;
      const assetClass = cell("AssetClass");
      if (assetClass === "OPT") {
        const right = cell("Put/Call").toUpperCase();
        const expiry = dateOf(cell("Expiry"));
        if (!expiry) {
          read.refused.push({ line, reason: `Open position: Expiry "${cell("Expiry")}" is not like 20260130` });
          continue;
        }
        add(line, {
          ticker: (cell("UnderlyingSymbol") || cell("Symbol").split(/\s+/)[0]!).toUpperCase(),
          kind: "option",
          option_type: right.startsWith("P") ? "put" : right.startsWith("C") ? "call" : null,
          strike: brokerNumber(cell("Strike")),
          expiry,
          quantity,
          cost_basis: cost,
        });
      } else if (assetClass === "STK") {
        add(line, {
          ticker: cell("Symbol").toUpperCase(),
          kind: "shares",
          option_type: null,
          strike: null,
          expiry: null,
          quantity,
          cost_basis: cost,
        });
      }
      // Other classes (bonds, futures, forex) are outside the wheel's book and not compared.
    }
  }
  if (reportDay) read.as_of = zonedToIso(reportDay, "23:59:59");
  endingCash(sections.filter(isCash), read);
  return read;

  function add(line: number, fields: Record<string, unknown>) {
    const result = positionOf(line, fields);
    if ("position" in result) read.positions.push(result.position);
    else read.refused.push(result.refused);
  }
}

/** The base currency's EndingCash (a USD row when the report has no BASE_SUMMARY), the last one read. */
function endingCash(sections: readonly FlexSection[], read: PositionsRead): void {
  let base: { line: number; text: string } | null = null;
  let usd: { line: number; text: string } | null = null;
  for (const section of sections) {
    const index = new Map(section.header.cells.map((name, i) => [name, i]));
    for (const { line, cells } of section.rows) {
      const cell = (name: string) => (index.has(name) ? (cells[index.get(name)!] ?? "") : "");
      const found = { line, text: cell("EndingCash") };
      if (cell("CurrencyPrimary") === "BASE_SUMMARY") base = found;
      else if (cell("CurrencyPrimary") === "USD") usd = found;
    }
  }
  const ending = base ?? usd;
  if (!ending) return;
  const cash = brokerNumber(ending.text);
  if (Number.isFinite(cash)) read.cash = Math.round(cash * 100) / 100;
  else read.refused.push({ line: ending.line, reason: `Cash Report: EndingCash "${ending.text}" is not a number` });
}

function* tradesSection(records: readonly CsvLine[]): Generator<ParsedLine> {
  const [header, ...rows] = records;
  const col = columns(header!.cells, REQUIRED, "an Interactive Brokers Flex Query (Trades)");
  const cell = (cells: string[], name: string) => (col.has(name) ? (cells[col.get(name)!] ?? "") : "");
  const codesOf = (cells: string[]) =>
    cell(cells, "Notes/Codes")
      .split(";")
      .map((c) => c.trim());
  const tickerOf = (cells: string[]) => cell(cells, "UnderlyingSymbol") || cell(cells, "Symbol").split(/\s+/)[0]!;

  const shareLegFees = new Map<string, number>();
  for (const { cells } of rows) {
    const codes = codesOf(cells);
    const fee = brokerNumber(cell(cells, "IBCommission") || "0");
    if (cell(cells, "AssetClass") !== "STK" || !(codes.includes("A") || codes.includes("Ex")) || !Number.isFinite(fee))
      continue;
    const key = `${cell(cells, "Symbol")}|${cell(cells, "DateTime")}`;
    shareLegFees.set(key, (shareLegFees.get(key) ?? 0) + Math.abs(fee));
  }

  const read = (record: CsvLine): ParsedLine => {
    const { line, cells, text } = record;
    const base = { line, text };
    const level = cell(cells, "LevelOfDetail");
    if (level && level.toUpperCase() !== "EXECUTION") return { ...base, skipped: true };
    const assetClass = cell(cells, "AssetClass");
    const codes = codesOf(cells);
    const quantity = brokerNumber(cell(cells, "Quantity"));
    const price = brokerNumber(cell(cells, "TradePrice"));
    const fee = brokerNumber(cell(cells, "IBCommission") || "0");
    const when = /^(\d{4}-?\d{2}-?\d{2})[;,\s]\s*(\d{2}):?(\d{2}):?(\d{2})?$/.exec(cell(cells, "DateTime"));
    const day = when ? dateOf(when[1]!) : null;
    if (!when || !day) return { ...base, refused: `DateTime "${cell(cells, "DateTime")}" is not like 20260105;103112` };
    if (!Number.isFinite(quantity) || quantity === 0)
      return { ...base, refused: `Quantity "${cell(cells, "Quantity")}" is not a number` };
    if (!Number.isFinite(price))
      return { ...base, refused: `TradePrice "${cell(cells, "TradePrice")}" is not a number` };
    if (!Number.isFinite(fee))
      return { ...base, refused: `IBCommission "${cell(cells, "IBCommission")}" is not a number` };
    const common = {
      quantity: Math.abs(quantity),
      price: Math.abs(price),
      fees: Math.round(Math.abs(fee) * 100) / 100,
      traded_at: zonedToIso(day, `${when[2]}:${when[3]}:${when[4] ?? "00"}`),
    };
    const has = (code: string) => codes.includes(code);

    if (assetClass === "OPT") {
      const expiry = dateOf(cell(cells, "Expiry"));
      const right = cell(cells, "Put/Call").toUpperCase();
      const strike = brokerNumber(cell(cells, "Strike"));
      if (!expiry) return { ...base, refused: `Expiry "${cell(cells, "Expiry")}" is not like 20260130` };
      if (right !== "P" && right !== "C" && right !== "PUT" && right !== "CALL")
        return { ...base, refused: `Put/Call "${cell(cells, "Put/Call")}" is neither P nor C` };
      if (!Number.isFinite(strike) || strike <= 0)
        return { ...base, refused: `Strike "${cell(cells, "Strike")}" is not a number` };
      const option = { ticker: tickerOf(cells), option_type: right.startsWith("P") ? "put" : "call", strike, expiry };
      const openClose = cell(cells, "Open/CloseIndicator").toUpperCase();
      let kind: string;
      if (has("A")) kind = option.option_type === "put" ? "assignment" : "exercise";
      else if (has("Ep")) kind = "expire";
      else if (has("Ex")) return { ...base, refused: "Exercising a long option is not part of the wheel journal" };
      else if (quantity < 0 && (openClose === "O" || has("O"))) kind = "sell_to_open";
      else if (quantity > 0 && (openClose === "C" || has("C"))) kind = "buy_to_close";
      else
        return { ...base, refused: "Buying options to open or selling them to close is not part of the wheel journal" };
      if (kind === "expire" || kind === "assignment" || kind === "exercise") {
        const shareFees =
          kind === "expire" ? 0 : (shareLegFees.get(`${option.ticker}|${cell(cells, "DateTime")}`) ?? 0);
        const fees = Math.round((common.fees + shareFees) * 100) / 100;
        return { ...base, trade: { kind, ...option, ...common, fees, price: 0 } };
      }
      return { ...base, trade: { kind, ...option, ...common } };
    }
    if (assetClass === "STK") {
      if (has("A") || has("Ex")) return { ...base, skipped: true };
      return {
        ...base,
        trade: { kind: quantity > 0 ? "stock_buy" : "stock_sell", ticker: cell(cells, "Symbol"), ...common },
      };
    }
    return { ...base, refused: `AssetClass "${assetClass}" is not STK or OPT` };
  };
  for (const record of rows) yield read(record);
}
