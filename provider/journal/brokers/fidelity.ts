import { brokerNumber, columns, CsvFormatError, type CsvLine, type ParsedLine } from "./csv.ts";
import { cents, closeOf, isoDay, monthOf, noonOf, ShareLegs, usDay } from "./day-only.ts";

/**
 * Fidelity, Accounts → Activity & Orders → History → Download (Accounts_History.csv): "Run Date",
 * "Action","Symbol","Description","Type","Quantity","Price ($)","Commission ($)","Fees ($)","Accrued Interest ($)",
 * "Amount ($)",... after a few blank lines, with disclaimers after the rows; the older layout has "Account"
 * and "Security Description" too, and the newest calls "Run Date" "Date". The Action says what was done in
 * words ("YOU SOLD OPENING TRANSACTION PUT (KO) ..."); an option's Symbol is like "-KO260612P65". An
 * assignment or expiry is posted a business day late with "as of" its day, which is the day read
 * (docs/decisions/0096-us-broker-csv-imports.md). Days only, read as Schwab's (ADR 0074).
 */
const REQUIRED = ["Action", "Symbol", "Quantity", "Price ($)", "Commission ($)", "Fees ($)", "Amount ($)"];
const OPTION = /^-([A-Z0-9.]+?)(\d{2})(\d{2})(\d{2})([PC])(\d+(?:\.\d+)?)$/;
/** Cash moves, interest, the core money-market sweep, journals: not trades. */
const NOT_TRADES =
  /ELECTRONIC FUNDS TRANSFER|TRANSFER|INTEREST|WIRE|DIRECT (DEBIT|DEPOSIT)|CHECK|JOURNAL|INTO CORE|FROM CORE|FEE CHARGED|FOREIGN TAX|DEPOSIT|WITHDRAW|MARGIN/;

/** "as of Jul-17-2026", "as of 07-17-26" or "as of 2026-07-17" in an Action, as `YYYY-MM-DD`. */
function asOfDay(action: string): string | null {
  let m = /as of ([A-Z][a-z]{2})-(\d{1,2})-(\d{4})/i.exec(action);
  if (m && monthOf(m[1]!) > 0) return isoDay(Number(m[3]), monthOf(m[1]!), Number(m[2]));
  m = /as of (\d{4})-(\d{2})-(\d{2})/i.exec(action);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /as of (\d{2})-(\d{2})-(\d{2})\b/i.exec(action);
  if (m) return `20${m[3]}-${m[1]}-${m[2]}`;
  return null;
}

export function* parseFidelity(records: readonly CsvLine[]): Generator<ParsedLine> {
  const headerAt = records.findIndex((r) => r.cells.includes("Action") && r.cells.includes("Amount ($)"));
  const header = records[headerAt] ?? records[0];
  const col = columns(header?.cells ?? [], REQUIRED, "a Fidelity account history file");
  const dateColumn = ["Run Date", "Date"].find((name) => col.has(name));
  if (!dateColumn)
    throw new CsvFormatError("This is not a Fidelity account history file: the column Run Date is missing");
  const cell = (cells: string[], name: string) => cells[col.get(name)!] ?? "";
  const body = records.slice(headerAt + 1);

  const legs = new ShareLegs();
  for (const { cells } of body) {
    const m = OPTION.exec(cell(cells, "Symbol"));
    if (m && /^ASSIGNED/i.test(cell(cells, "Action")))
      legs.assigned(m[1]!, usDay(cell(cells, dateColumn)), Number(m[6]));
  }
  const feesOf = (cells: string[]) =>
    Math.abs(brokerNumber(cell(cells, "Commission ($)") || "0")) +
    Math.abs(brokerNumber(cell(cells, "Fees ($)") || "0"));
  for (const { cells } of body) {
    if (!/^YOU (BOUGHT|SOLD)/i.test(cell(cells, "Action")) || OPTION.test(cell(cells, "Symbol"))) continue;
    legs.addFees(
      cell(cells, "Symbol"),
      usDay(cell(cells, dateColumn)),
      brokerNumber(cell(cells, "Price ($)")),
      feesOf(cells),
    );
  }

  const read = ({ line, cells, text }: CsvLine): ParsedLine => {
    const base = { line, text };
    const action = cell(cells, "Action").toUpperCase();
    const posted = usDay(cell(cells, dateColumn));
    // The disclaimers and "Date downloaded" lines after the rows have no date of their own.
    if (action === "" || (!posted && cells.filter((c) => c !== "").length <= 1)) return { ...base, skipped: true };
    if (!posted) return { ...base, refused: `${dateColumn} "${cell(cells, dateColumn)}" is not like 06/12/2026` };
    const day = asOfDay(cell(cells, "Action")) ?? posted;
    const symbol = cell(cells, "Symbol");
    const amount = brokerNumber(cell(cells, "Amount ($)") || "0");
    if (/DIVIDEND RECEIVED|CASH IN LIEU/.test(action)) {
      if (!Number.isFinite(amount) || amount <= 0)
        return { ...base, refused: `Amount ($) "${cell(cells, "Amount ($)")}" is not a dividend received` };
      return {
        ...base,
        trade: { kind: "dividend", ticker: symbol, quantity: 1, price: amount, fees: 0, traded_at: noonOf(day) },
      };
    }
    if (!/^(YOU BOUGHT|YOU SOLD|EXPIRED|ASSIGNED|REINVESTMENT)/.test(action)) {
      if (NOT_TRADES.test(action)) return { ...base, skipped: true };
      return { ...base, refused: `Action "${cell(cells, "Action")}" is not a trade the wheel journal keeps` };
    }
    const quantity = Math.abs(brokerNumber(cell(cells, "Quantity")));
    if (!Number.isFinite(quantity) || quantity === 0)
      return { ...base, refused: `Quantity "${cell(cells, "Quantity")}" is not a number other than 0` };
    const fees = feesOf(cells);
    if (!Number.isFinite(fees)) return { ...base, refused: "Commission ($) or Fees ($) is not a number" };
    const price = brokerNumber(cell(cells, "Price ($)") || "0");
    if (!Number.isFinite(price)) return { ...base, refused: `Price ($) "${cell(cells, "Price ($)")}" is not a number` };

    const m = OPTION.exec(symbol);
    if (m) {
      const option = {
        ticker: m[1]!,
        option_type: m[5] === "P" ? "put" : "call",
        strike: Number(m[6]),
        expiry: `20${m[2]}-${m[3]}-${m[4]}`,
        quantity,
      };
      if (action.startsWith("YOU SOLD OPENING"))
        return {
          ...base,
          trade: { kind: "sell_to_open", ...option, price, fees: cents(fees), traded_at: noonOf(day) },
        };
      if (action.startsWith("YOU BOUGHT CLOSING"))
        return {
          ...base,
          trade: { kind: "buy_to_close", ...option, price, fees: cents(fees), traded_at: noonOf(day) },
        };
      if (action.startsWith("EXPIRED"))
        return { ...base, trade: { kind: "expire", ...option, price: 0, fees: cents(fees), traded_at: closeOf(day) } };
      if (action.startsWith("ASSIGNED"))
        return {
          ...base,
          trade: {
            kind: option.option_type === "put" ? "assignment" : "exercise",
            ...option,
            price: 0,
            fees: cents(fees + legs.feesOf(option.ticker, posted, option.strike)),
            traded_at: closeOf(day),
          },
        };
      return {
        ...base,
        refused: `"${cell(cells, "Action")}" is not part of the wheel journal (short puts and calls only)`,
      };
    }
    if (legs.isLeg(symbol, posted, price)) return { ...base, skipped: true };
    return {
      ...base,
      trade: {
        kind: action.startsWith("YOU SOLD") ? "stock_sell" : "stock_buy",
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
