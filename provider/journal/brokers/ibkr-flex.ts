import { brokerNumber, columns, type CsvLine, type ParsedLine } from "./csv.ts";
import { zonedToIso } from "./zone.ts";

/**
 * Interactive Brokers, a Flex Query's Trades section as CSV (column headers on, no section codes):
 * one header row, then a row per execution. AssetClass says STK or OPT; Notes/Codes (A assignment,
 * Ep expired, Ex exercised) and Open/CloseIndicator say what an option row did, as the activity
 * statement's Code does. DateTime is "20260105;103112" (or "2026-01-05;10:31:12", as the query's
 * date settings say), on New York's clock. Share rows of assignments and call-aways are the option
 * row's share legs: their IBCommission is added to it (ADR 0074).
 */
const REQUIRED = ["AssetClass", "Symbol", "DateTime", "Quantity", "TradePrice", "IBCommission"];

/** Whether `header` is a Flex Query's Trades header. */
export function isFlexHeader(header: CsvLine | undefined): boolean {
  return !!header && header.cells.includes("AssetClass") && header.cells.includes("DateTime");
}

const dateOf = (text: string) => {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};

export function* parseIbkrFlex(records: readonly CsvLine[]): Generator<ParsedLine> {
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
