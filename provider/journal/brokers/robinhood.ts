import { brokerNumber, columns, type CsvLine, type ParsedLine } from "./csv.ts";
import { cents, closeOf, isoDay, noonOf, ShareLegs, usDay } from "./day-only.ts";

/**
 * Robinhood, Account → Reports and statements → Reports, the account activity CSV: "Activity Date",
 * "Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount", newest
 * first (docs/decisions/0096-us-broker-csv-imports.md). An option's Description is like
 * "KO 6/12/2026 Put $65.00" ("Option Expiration for KO 6/12/2026 Put $65.00" on its OEXP line). There is
 * no fee column: regulatory fees are netted into Amount, so a line's fees are what Amount falls short of
 * quantity × price (× 100 for an option). Days only, read as Schwab's (ADR 0074).
 */
const REQUIRED = ["Activity Date", "Instrument", "Description", "Trans Code", "Quantity", "Price", "Amount"];
const OPTION = /([A-Z0-9.]+)\s+(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(Put|Call)\s+\$([\d,]+(?:\.\d+)?)\s*$/i;
/**
 * Trans codes that move cash or paper but are no trade: deposits, interest, Gold and margin fees, stock
 * lending, account transfers. Any other code that is not a trade is refused with its name.
 */
const NOT_TRADES = new Set(["ACH", "INT", "GOLD", "MINT", "SLIP", "ACATI", "ACATO"]);

export function* parseRobinhood(records: readonly CsvLine[]): Generator<ParsedLine> {
  const headerAt = records.findIndex((r) => r.cells.includes("Trans Code") && r.cells.includes("Activity Date"));
  const header = records[headerAt] ?? records[0];
  const col = columns(header?.cells ?? [], REQUIRED, "a Robinhood account activity file");
  const cell = (cells: string[], name: string) => cells[col.get(name)!] ?? "";
  const body = records.slice(headerAt + 1);

  const legs = new ShareLegs();
  for (const { cells } of body) {
    const m = OPTION.exec(cell(cells, "Description"));
    if (m && cell(cells, "Trans Code") === "OASGN")
      legs.assigned(m[1]!, usDay(cell(cells, "Activity Date")), strikeOf(m));
  }
  const feesOf = (cells: string[], multiplier: number) => {
    const gross = brokerNumber(cell(cells, "Quantity")) * brokerNumber(cell(cells, "Price")) * multiplier;
    const amount = brokerNumber(cell(cells, "Amount"));
    // A sale brings in gross less fees; a purchase costs gross plus fees.
    return cents(amount >= 0 ? gross - amount : -amount - gross);
  };
  for (const { cells } of body) {
    const code = cell(cells, "Trans Code");
    if (code !== "Buy" && code !== "Sell") continue;
    legs.addFees(
      cell(cells, "Instrument"),
      usDay(cell(cells, "Activity Date")),
      brokerNumber(cell(cells, "Price")),
      feesOf(cells, 1),
    );
  }

  const read = ({ line, cells, text }: CsvLine): ParsedLine => {
    const base = { line, text };
    const code = cell(cells, "Trans Code");
    // The footer's disclaimer, and every cash movement, is not a trade.
    if (code === "" || NOT_TRADES.has(code)) return { ...base, skipped: true };
    const day = usDay(cell(cells, "Activity Date"));
    if (!day) return { ...base, refused: `Activity Date "${cell(cells, "Activity Date")}" is not like 6/12/2026` };
    const ticker = cell(cells, "Instrument");
    const amount = brokerNumber(cell(cells, "Amount"));
    if (code === "CDIV" || code === "MDIV") {
      if (!Number.isFinite(amount) || amount <= 0)
        return { ...base, refused: `Amount "${cell(cells, "Amount")}" is not a dividend received` };
      return {
        ...base,
        trade: { kind: "dividend", ticker, quantity: 1, price: amount, fees: 0, traded_at: noonOf(day) },
      };
    }
    const quantity = brokerNumber(cell(cells, "Quantity"));
    if (!Number.isFinite(quantity) || quantity <= 0)
      return { ...base, refused: `Quantity "${cell(cells, "Quantity")}" is not a number above 0` };
    const m = OPTION.exec(cell(cells, "Description"));
    if (m) {
      const option = {
        ticker: m[1]!,
        option_type: m[5]!.toLowerCase() === "put" ? "put" : "call",
        strike: strikeOf(m),
        expiry: isoDay(Number(m[4]), Number(m[2]), Number(m[3])),
        quantity,
      };
      if (code === "OEXP")
        return { ...base, trade: { kind: "expire", ...option, price: 0, fees: 0, traded_at: closeOf(day) } };
      if (code === "OASGN")
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
      if (code !== "STO" && code !== "BTC")
        return {
          ...base,
          refused: `Trans Code "${code}" of an option is not part of the wheel journal (short puts and calls only)`,
        };
      const priced = pricedLine(cells, cell, 100);
      if ("refused" in priced) return { ...base, refused: priced.refused };
      return {
        ...base,
        trade: {
          kind: code === "STO" ? "sell_to_open" : "buy_to_close",
          ...option,
          ...priced,
          traded_at: noonOf(day),
        },
      };
    }
    if (code === "Buy" || code === "Sell") {
      const price = brokerNumber(cell(cells, "Price"));
      if (legs.isLeg(ticker, day, price)) return { ...base, skipped: true };
      const priced = pricedLine(cells, cell, 1);
      if ("refused" in priced) return { ...base, refused: priced.refused };
      return {
        ...base,
        trade: {
          kind: code === "Buy" ? "stock_buy" : "stock_sell",
          ticker,
          quantity,
          ...priced,
          traded_at: noonOf(day),
        },
      };
    }
    return { ...base, refused: `Trans Code "${code}" is not a trade the wheel journal keeps` };
  };

  /** Price and the fees Amount implies; a line whose Amount is more than its price says is refused. */
  function pricedLine(
    cells: string[],
    at: typeof cell,
    multiplier: number,
  ): { price: number; fees: number } | { refused: string } {
    const price = brokerNumber(at(cells, "Price"));
    if (!Number.isFinite(price) || price < 0) return { refused: `Price "${at(cells, "Price")}" is not a number` };
    const amount = brokerNumber(at(cells, "Amount"));
    if (!Number.isFinite(amount)) return { refused: `Amount "${at(cells, "Amount")}" is not a number` };
    const fees = feesOf(cells, multiplier);
    if (fees < 0)
      return {
        refused: `Amount "${at(cells, "Amount")}" is more than Quantity × Price${multiplier === 100 ? " × 100" : ""}, so its fees cannot be told`,
      };
    return { price, fees };
  }

  for (const record of body) yield read(record);
}

const strikeOf = (m: RegExpExecArray) => Number(m[6]!.replace(/,/g, ""));
