import { brokerNumber, columns, type CsvLine, type ParsedLine } from "./csv.ts";

/**
 * tastytrade, History → Transactions exported as CSV. Type says Trade, Receive Deliver (expirations,
 * assignments and the shares they deliver) or Money Movement; Sub Type says what was done (the
 * older layout, without it: olderSubType). Value is the
 * cash of the line, so an option's price per share is |Value| ÷ (Quantity × Multiplier). The shares an
 * assignment delivers or takes are not a trade of their own; their commission and fees are the option line's.
 */
const REQUIRED = [
  "Date",
  "Type",
  "Action",
  "Symbol",
  "Instrument Type",
  "Value",
  "Quantity",
  "Commissions",
  "Fees",
  "Multiplier",
  "Underlying Symbol",
  "Expiration Date",
  "Strike Price",
  "Call or Put",
];

export function* parseTastytrade(lines: readonly CsvLine[]): Generator<ParsedLine> {
  const [header, ...records] = lines;
  if (!header) return [];
  const col = columns(header.cells, REQUIRED, "a tastytrade transactions file");
  const cell = (cells: string[], name: string) => cells[col.get(name)!] ?? "";
  // Commissions and fees of the shares assignments and exercises deliver, by ticker and time (issue 43).
  const shareLegFees = new Map<string, number>();
  for (const { cells } of records) {
    if (cell(cells, "Type") !== "Receive Deliver" || cell(cells, "Instrument Type") !== "Equity") continue;
    const fee =
      Math.abs(brokerNumber(cell(cells, "Commissions") || "0")) + Math.abs(brokerNumber(cell(cells, "Fees") || "0"));
    if (!Number.isFinite(fee)) continue;
    const key = `${cell(cells, "Symbol")}|${cell(cells, "Date")}`;
    shareLegFees.set(key, (shareLegFees.get(key) ?? 0) + fee);
  }

  const read = (record: CsvLine): ParsedLine => {
    const { line, cells, text: raw } = record;
    const base = { line, text: raw };
    const type = cell(cells, "Type");
    const subType = col.has("Sub Type")
      ? cell(cells, "Sub Type")
      : olderSubType(type, cell(cells, "Action"), cell(cells, "Description"));
    const instrument = cell(cells, "Instrument Type");
    if (type === "Money Movement" && /^(dividend|cash in lieu)/i.test(subType)) return dividendLine(base, cells, cell);
    if (type === "Money Movement") return { ...base, skipped: true };
    if (type !== "Trade" && type !== "Receive Deliver") return { ...base, refused: `Type "${type}" is not a trade` };
    // The shares an assignment or exercise delivers belong to the option's line.
    if (type === "Receive Deliver" && instrument === "Equity") return { ...base, skipped: true };

    const when = Date.parse(cell(cells, "Date").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    if (Number.isNaN(when)) return { ...base, refused: `Date "${cell(cells, "Date")}" is not a date and time` };
    const quantity = brokerNumber(cell(cells, "Quantity"));
    const value = brokerNumber(cell(cells, "Value") || "0");
    const commissions = brokerNumber(cell(cells, "Commissions") || "0");
    const fees = brokerNumber(cell(cells, "Fees") || "0");
    if (!Number.isFinite(quantity) || quantity <= 0)
      return { ...base, refused: `Quantity "${cell(cells, "Quantity")}" is not a number above 0` };
    if (!Number.isFinite(value)) return { ...base, refused: `Value "${cell(cells, "Value")}" is not a number` };
    if (!Number.isFinite(commissions) || !Number.isFinite(fees))
      return { ...base, refused: "Commissions and Fees must be numbers" };
    const common = {
      quantity,
      fees: Math.round((Math.abs(commissions) + Math.abs(fees)) * 100) / 100,
      traded_at: new Date(when).toISOString(),
    };

    // Index options (SPX, XSP, …) are sold and closed like equity options; they settle in cash.
    if (instrument === "Equity Option" || instrument === "Index Option") {
      const multiplier = brokerNumber(cell(cells, "Multiplier") || "100");
      const expiry = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(cell(cells, "Expiration Date"));
      const optionType = cell(cells, "Call or Put").toUpperCase();
      if (!expiry)
        return { ...base, refused: `Expiration Date "${cell(cells, "Expiration Date")}" is not like 1/30/26` };
      if (optionType !== "PUT" && optionType !== "CALL")
        return { ...base, refused: `Call or Put "${cell(cells, "Call or Put")}" is neither` };
      const option = {
        ticker: cell(cells, "Underlying Symbol"),
        option_type: optionType === "PUT" ? "put" : "call",
        strike: brokerNumber(cell(cells, "Strike Price")),
        expiry: `20${expiry[3]}-${expiry[1]!.padStart(2, "0")}-${expiry[2]!.padStart(2, "0")}`,
      };
      const price = Math.round((Math.abs(value) / (quantity * multiplier)) * 10_000) / 10_000;
      switch (subType) {
        case "Sell to Open":
          return { ...base, trade: { kind: "sell_to_open", ...option, ...common, price } };
        case "Buy to Close":
          return { ...base, trade: { kind: "buy_to_close", ...option, ...common, price } };
        case "Expiration":
          return { ...base, trade: { kind: "expire", ...option, ...common, price: 0 } };
        case "Assignment": {
          if (instrument === "Index Option")
            return {
              ...base,
              refused:
                "A cash-settled index option's assignment delivers no shares: record its settlement as a buy-to-close at the settlement price",
            };
          const shareFees = shareLegFees.get(`${option.ticker}|${cell(cells, "Date")}`) ?? 0;
          const fees = Math.round((common.fees + shareFees) * 100) / 100;
          return {
            ...base,
            trade: {
              kind: option.option_type === "put" ? "assignment" : "exercise",
              ...option,
              ...common,
              fees,
              price: 0,
            },
          };
        }
        default:
          return {
            ...base,
            refused: `"${subType}" of an option is not part of the wheel journal (short puts and calls only)`,
          };
      }
    }
    if (instrument === "Equity") {
      const price = Math.round((Math.abs(value) / quantity) * 10_000) / 10_000;
      const action = cell(cells, "Action").toUpperCase();
      const kind = action.startsWith("BUY") ? "stock_buy" : action.startsWith("SELL") ? "stock_sell" : null;
      if (!kind) return { ...base, refused: `Action "${cell(cells, "Action")}" is neither a buy nor a sell` };
      return { ...base, trade: { kind, ticker: cell(cells, "Symbol"), ...common, price } };
    }
    return { ...base, refused: `Instrument Type "${instrument}" is not shares or equity options` };
  };
  for (const record of records) yield read(record);
}

/**
 * A Money Movement of Sub Type Dividend or Cash in Lieu: a dividend entry (ADR 0074). Value is the
 * cash; "ON 100 SHS" in the Description gives the shares, else the entry is the amount once.
 */
function dividendLine(
  base: { line: number; text: string },
  cells: string[],
  cell: (cells: string[], name: string) => string,
): ParsedLine {
  const when = Date.parse(cell(cells, "Date").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  if (Number.isNaN(when)) return { ...base, refused: `Date "${cell(cells, "Date")}" is not a date and time` };
  const amount = brokerNumber(cell(cells, "Value"));
  if (!Number.isFinite(amount)) return { ...base, refused: `Value "${cell(cells, "Value")}" is not a number` };
  if (amount <= 0)
    return { ...base, refused: "A dividend reversal is not recorded in the journal; enter the change by hand" };
  const ticker = cell(cells, "Symbol") || cell(cells, "Underlying Symbol");
  if (!ticker) return { ...base, refused: "The dividend names no Symbol" };
  const shares = Number(/ON\s+([\d,]+)\s+SHS/i.exec(cell(cells, "Description"))?.[1]?.replace(/,/g, "") ?? 0);
  const fees = Math.abs(brokerNumber(cell(cells, "Fees") || "0")) || 0;
  return {
    ...base,
    trade: {
      kind: "dividend",
      ticker,
      quantity: shares > 0 ? shares : 1,
      price: shares > 0 ? Math.round(((amount + fees) / shares) * 10_000) / 10_000 : amount + fees,
      fees,
      traded_at: new Date(when).toISOString(),
    },
  };
}

const ACTIONS: Record<string, string> = {
  SELL_TO_OPEN: "Sell to Open",
  BUY_TO_CLOSE: "Buy to Close",
  BUY_TO_OPEN: "Buy to Open",
  SELL_TO_CLOSE: "Sell to Close",
};

/**
 * The older layout (tastyworks) has no Sub Type column: what was done is in Action, and for the
 * lines the broker wrote itself (expirations, assignments, exercises, dividends) in the Description,
 * e.g. "Removal of option due to assignment" (issue 43).
 */
function olderSubType(type: string, action: string, description: string): string {
  if (type === "Receive Deliver") {
    if (/expiration/i.test(description)) return "Expiration";
    if (/assignment/i.test(description)) return "Assignment";
    if (/exercise/i.test(description)) return "Exercise";
  }
  if (type === "Money Movement") {
    if (/cash in lieu/i.test(description)) return "Cash in Lieu";
    if (/dividend|div on/i.test(description)) return "Dividend";
    return "";
  }
  return ACTIONS[action.toUpperCase()] ?? action;
}
