import { brokerNumber, columns, type CsvLine, type ParsedLine } from "./csv.ts";
import { zonedToIso } from "./zone.ts";

/**
 * Charles Schwab, Accounts → History → Transactions exported as CSV: "Date","Action","Symbol",
 * "Description","Quantity","Price","Fees & Comm","Amount", newest first. An option's Symbol is like
 * "KO 01/30/2026 50.00 P". Dates have no time: a trade is read at noon New York, an expiry or
 * assignment at 16:00, so a buy-to-close and a sell-to-open of one day are one roll (ADR 0074). An
 * assignment's or call-away's share line (Buy or Sell at the strike, same day) is its share leg.
 * "01/30/2026 as of 01/29/2026" is read as the trade date (the "as of" one).
 */
const REQUIRED = ["Date", "Action", "Symbol", "Quantity", "Price", "Fees & Comm", "Amount"];
const OPTION = /^([A-Z0-9.]+)\s+(\d{2})\/(\d{2})\/(\d{4})\s+(\d+(?:\.\d+)?)\s+([PC])$/;

const dayOf = (text: string) => {
  const m = /(\d{2})\/(\d{2})\/(\d{4})\s*$/.exec(text.trim());
  return m ? `${m[3]}-${m[1]}-${m[2]}` : null;
};

export function* parseSchwab(records: readonly CsvLine[]): Generator<ParsedLine> {
  const headerAt = records.findIndex((r) => r.cells.includes("Action") && r.cells.includes("Fees & Comm"));
  const header = records[headerAt] ?? records[0];
  const col = columns(header?.cells ?? [], REQUIRED, "a Schwab transactions file");
  const cell = (cells: string[], name: string) => cells[col.get(name)!] ?? "";

  // Share legs: a Buy/Sell of 100 × contracts at the strike on the day of an assignment.
  const legs = new Map<string, number>();
  for (const { cells } of records) {
    const action = cell(cells, "Action");
    const m = OPTION.exec(cell(cells, "Symbol"));
    if (!m || (action !== "Assigned" && action !== "Exchange or Exercise")) continue;
    legs.set(`${m[1]}|${dayOf(cell(cells, "Date"))}|${Number(m[5])}`, 0);
  }
  const shareLegFees = new Map<string, number>();
  const isShareLeg = (cells: string[]) => {
    const key = `${cell(cells, "Symbol")}|${dayOf(cell(cells, "Date"))}|${brokerNumber(cell(cells, "Price"))}`;
    return legs.has(key) ? key : null;
  };
  for (const { cells } of records) {
    const action = cell(cells, "Action");
    if (action !== "Buy" && action !== "Sell") continue;
    const key = isShareLeg(cells);
    if (key)
      shareLegFees.set(key, (shareLegFees.get(key) ?? 0) + Math.abs(brokerNumber(cell(cells, "Fees & Comm") || "0")));
  }

  const read = (record: CsvLine): ParsedLine => {
    const { line, cells, text } = record;
    const base = { line, text };
    const action = cell(cells, "Action");
    if (/^transactions total/i.test(cell(cells, "Date")) || action === "") return { ...base, skipped: true };
    // Money moved in or out, interest, journal entries: not trades.
    if (/journal|interest|transfer|wire|moneylink|fee|deposit|withdraw/i.test(action))
      return { ...base, skipped: true };
    const day = dayOf(cell(cells, "Date"));
    if (!day) return { ...base, refused: `Date "${cell(cells, "Date")}" is not like 01/30/2026` };
    const symbol = cell(cells, "Symbol");
    const quantity = brokerNumber(cell(cells, "Quantity") || "0");
    const price = brokerNumber(cell(cells, "Price") || "0");
    const fees = brokerNumber(cell(cells, "Fees & Comm") || "0");
    const amount = brokerNumber(cell(cells, "Amount") || "0");
    if (!Number.isFinite(fees))
      return { ...base, refused: `Fees & Comm "${cell(cells, "Fees & Comm")}" is not a number` };

    if (/dividend|cash in lieu/i.test(action)) {
      if (!Number.isFinite(amount) || amount <= 0)
        return { ...base, refused: `Amount "${cell(cells, "Amount")}" is not a dividend received` };
      return {
        ...base,
        trade: {
          kind: "dividend",
          ticker: symbol,
          quantity: 1,
          price: amount,
          fees: 0,
          traded_at: zonedToIso(day, "12:00"),
        },
      };
    }
    if (!Number.isFinite(quantity) || quantity <= 0)
      return { ...base, refused: `Quantity "${cell(cells, "Quantity")}" is not a number above 0` };
    if (!Number.isFinite(price)) return { ...base, refused: `Price "${cell(cells, "Price")}" is not a number` };
    const common = { quantity, price: Math.abs(price), fees: Math.round(Math.abs(fees) * 100) / 100 };
    const noon = zonedToIso(day, "12:00");
    const close = zonedToIso(day, "16:00");

    const m = OPTION.exec(symbol);
    if (m) {
      const option = {
        ticker: m[1]!,
        option_type: m[6] === "P" ? "put" : "call",
        strike: Number(m[5]),
        expiry: `${m[4]}-${m[2]}-${m[3]}`,
      };
      const legFees = shareLegFees.get(`${m[1]}|${day}|${Number(m[5])}`) ?? 0;
      switch (action) {
        case "Sell to Open":
          return { ...base, trade: { kind: "sell_to_open", ...option, ...common, traded_at: noon } };
        case "Buy to Close":
          return { ...base, trade: { kind: "buy_to_close", ...option, ...common, traded_at: noon } };
        case "Expired":
          return { ...base, trade: { kind: "expire", ...option, ...common, price: 0, traded_at: close } };
        case "Assigned":
        case "Exchange or Exercise":
          return {
            ...base,
            trade: {
              kind: option.option_type === "put" ? "assignment" : "exercise",
              ...option,
              ...common,
              price: 0,
              fees: Math.round((common.fees + legFees) * 100) / 100,
              traded_at: close,
            },
          };
        default:
          return {
            ...base,
            refused: `"${action}" of an option is not part of the wheel journal (short puts and calls only)`,
          };
      }
    }
    if (action === "Buy" || action === "Sell") {
      if (isShareLeg(cells)) return { ...base, skipped: true };
      return {
        ...base,
        trade: { kind: action === "Buy" ? "stock_buy" : "stock_sell", ticker: symbol, ...common, traded_at: noon },
      };
    }
    return { ...base, refused: `Action "${action}" is not a trade` };
  };
  for (const record of records.slice(headerAt + 1)) yield read(record);
}
