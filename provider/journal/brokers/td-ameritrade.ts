import { brokerNumber, columns, type CsvLine, type ParsedLine } from "./csv.ts";
import { cents, closeOf, isoDay, monthOf, noonOf, ShareLegs, usDay } from "./day-only.ts";

/**
 * TD Ameritrade, My Account → History & Statements → Transactions, exported as transactions.csv
 * (the layout of accounts before their move to Schwab): DATE,TRANSACTION ID,DESCRIPTION,QUANTITY,SYMBOL,
 * PRICE,COMMISSION,AMOUNT,REG FEE,... ending with "***END OF FILE***". A trade's DESCRIPTION says
 * "Sold 2 KO Jun 12 2026 65.0 Put @ 1.2" or "Bought ..." without opening or closing, so in this journal of
 * short options a sold option opens and a bought one closes; an option's SYMBOL is like
 * "KO Jun 12 2026 65.0 Put". An expiry or assignment is "REMOVAL OF OPTION DUE TO EXPIRATION" /
 * "... ASSIGNMENT" (docs/decisions/0096-us-broker-csv-imports.md). Fees are
 * COMMISSION + REG FEE. Days only, read as Schwab's (ADR 0074).
 */
const REQUIRED = ["DATE", "DESCRIPTION", "QUANTITY", "SYMBOL", "PRICE", "COMMISSION", "AMOUNT"];
const OPTION = /^([A-Z0-9.]+)\s+([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d{4})\s+(\d+(?:\.\d+)?)\s+(Put|Call)$/i;

export function* parseTdAmeritrade(records: readonly CsvLine[]): Generator<ParsedLine> {
  const headerAt = records.findIndex((r) => r.cells.includes("TRANSACTION ID") && r.cells.includes("DESCRIPTION"));
  const header = records[headerAt] ?? records[0];
  const col = columns(header?.cells ?? [], REQUIRED, "a TD Ameritrade transactions file");
  const cell = (cells: string[], name: string) => (col.has(name) ? (cells[col.get(name)!] ?? "") : "");
  const body = records.slice(headerAt + 1);
  const feesOf = (cells: string[]) =>
    Math.abs(brokerNumber(cell(cells, "COMMISSION") || "0")) + Math.abs(brokerNumber(cell(cells, "REG FEE") || "0"));

  const legs = new ShareLegs();
  for (const { cells } of body) {
    const m = OPTION.exec(cell(cells, "SYMBOL"));
    if (m && /DUE TO (ASSIGNMENT|EXERCISE)/i.test(cell(cells, "DESCRIPTION")))
      legs.assigned(m[1]!, usDay(cell(cells, "DATE")), Number(m[5]));
  }
  for (const { cells } of body) {
    if (!/^(Bought|Sold)\b/i.test(cell(cells, "DESCRIPTION")) || OPTION.test(cell(cells, "SYMBOL"))) continue;
    legs.addFees(cell(cells, "SYMBOL"), usDay(cell(cells, "DATE")), brokerNumber(cell(cells, "PRICE")), feesOf(cells));
  }

  const read = ({ line, cells, text }: CsvLine): ParsedLine => {
    const base = { line, text };
    const description = cell(cells, "DESCRIPTION");
    if (/END OF FILE/i.test(cell(cells, "DATE")) || description === "") return { ...base, skipped: true };
    const day = usDay(cell(cells, "DATE"));
    if (!day) return { ...base, refused: `DATE "${cell(cells, "DATE")}" is not like 06/12/2026` };
    const symbol = cell(cells, "SYMBOL");
    const amount = brokerNumber(cell(cells, "AMOUNT") || "0");
    if (/DIVIDEND|CASH IN LIEU/i.test(description)) {
      if (!Number.isFinite(amount) || amount <= 0)
        return { ...base, refused: `AMOUNT "${cell(cells, "AMOUNT")}" is not a dividend received` };
      return {
        ...base,
        trade: { kind: "dividend", ticker: symbol, quantity: 1, price: amount, fees: 0, traded_at: noonOf(day) },
      };
    }
    const trade = /^(Bought|Sold)\b/i.exec(description);
    const removal = /REMOVAL OF OPTION DUE TO (EXPIRATION|ASSIGNMENT|EXERCISE)/i.exec(description);
    if (!trade && !removal) return { ...base, skipped: true }; // funding, interest, journals: not trades
    const quantity = Math.abs(brokerNumber(cell(cells, "QUANTITY")));
    if (!Number.isFinite(quantity) || quantity === 0)
      return { ...base, refused: `QUANTITY "${cell(cells, "QUANTITY")}" is not a number other than 0` };
    const fees = feesOf(cells);
    if (!Number.isFinite(fees)) return { ...base, refused: "COMMISSION or REG FEE is not a number" };
    const price = brokerNumber(cell(cells, "PRICE") || "0");
    if (!Number.isFinite(price) || price < 0)
      return { ...base, refused: `PRICE "${cell(cells, "PRICE")}" is not a number` };

    const m = OPTION.exec(symbol);
    if (m) {
      const month = monthOf(m[2]!);
      if (month === 0) return { ...base, refused: `SYMBOL "${symbol}" has no month like Jun` };
      const option = {
        ticker: m[1]!,
        option_type: m[6]!.toLowerCase() === "put" ? "put" : "call",
        strike: Number(m[5]),
        expiry: isoDay(Number(m[4]), month, Number(m[3])),
        quantity,
      };
      if (removal?.[1]!.toUpperCase() === "EXPIRATION")
        return { ...base, trade: { kind: "expire", ...option, price: 0, fees: 0, traded_at: closeOf(day) } };
      if (removal)
        return {
          ...base,
          trade: {
            kind: option.option_type === "put" ? "assignment" : "exercise",
            ...option,
            price: 0,
            fees: cents(legs.feesOf(option.ticker, day, option.strike)),
            traded_at: closeOf(day),
          },
        };
      const kind = trade![1]!.toLowerCase() === "sold" ? "sell_to_open" : "buy_to_close";
      return { ...base, trade: { kind, ...option, price, fees: cents(fees), traded_at: noonOf(day) } };
    }
    if (removal) return { ...base, refused: `SYMBOL "${symbol}" is not an option like KO Jun 12 2026 65.0 Put` };
    if (legs.isLeg(symbol, day, price)) return { ...base, skipped: true };
    return {
      ...base,
      trade: {
        kind: trade![1]!.toLowerCase() === "sold" ? "stock_sell" : "stock_buy",
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
