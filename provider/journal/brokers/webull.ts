import { parseOccSymbol, InvalidOccSymbolError, type OccParts } from "#provider/options/occ-symbol.ts";
import { brokerNumber, columns, type CsvLine, type ParsedLine } from "./csv.ts";
import { usDay } from "./day-only.ts";
import { zonedToIso } from "./zone.ts";

/**
 * Webull, Account → Orders → Export (Webull_Orders_Records.csv): one line per order, `Name,Symbol,Side,
 * Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time`. An option's Symbol
 * (and Name) is the compact OCC symbol `KO260612P00065000`; times are `05/04/2026 10:31:05 EDT`, US
 * Eastern with the zone written after them (docs/decisions/0095-webull-orders-and-expiries-from-the-close.md).
 *
 * Orders only: a line is a trade when its Status is "Filled", for its Filled quantity at its Avg Price.
 * No fees (the file has none: 0), no opening or closing flag (a sold option opens, a bought one closes,
 * as TD Ameritrade's), no expiries or assignments (the import records them from the close, ADR 0095).
 */
const REQUIRED = ["Symbol", "Side", "Status", "Filled", "Avg Price", "Filled Time"];
const OCC_LIKE = /^[A-Z0-9]{1,6}\s*\d{6}[CP]\d{8}$/i;

/** Zones Webull may write after a time (the app's zone, US Eastern by default), as hours from UTC. */
const ZONES: Record<string, number> = {
  EST: -5,
  EDT: -4,
  CST: -6,
  CDT: -5,
  MST: -7,
  MDT: -6,
  PST: -8,
  PDT: -7,
  UTC: 0,
  GMT: 0,
};

/** `05/04/2026 10:31:05 EDT` as an ISO instant; null when it is not one. Without a zone: New York's clock. */
export function webullTime(text: string): string | null {
  const m = /^(\S+)\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s+([A-Z]{2,4}))?$/.exec(text.trim());
  if (!m) return null;
  const day = usDay(m[1]!);
  const [hh, mm, ss] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (!day || hh > 23 || mm > 59 || ss > 59) return null;
  const time = `${m[2]}:${m[3]}:${m[4] ?? "00"}`;
  if (m[5] === undefined) return zonedToIso(day, time);
  const offset = ZONES[m[5]];
  if (offset === undefined) return null;
  const [y, mo, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, hh - offset, mm, ss)).toISOString();
}

export function* parseWebull(records: readonly CsvLine[]): Generator<ParsedLine> {
  const headerAt = records.findIndex((r) => r.cells.includes("Symbol") && r.cells.includes("Filled Time"));
  const header = records[headerAt] ?? records[0];
  const col = columns(header?.cells ?? [], REQUIRED, "a Webull orders file");
  const cell = (cells: string[], name: string) => (col.has(name) ? (cells[col.get(name)!] ?? "") : "");
  const body = records.slice(headerAt + 1);

  // A share order is part of the wheel when the file sells options on its ticker.
  const wheelTickers = new Set<string>();
  for (const { cells } of body) {
    const symbol = cell(cells, "Symbol");
    if (OCC_LIKE.test(symbol)) wheelTickers.add(symbol.replace(/\d.*$/, "").trim().toUpperCase());
  }

  const read = ({ line, cells, text }: CsvLine): ParsedLine => {
    const base = { line, text };
    const symbol = cell(cells, "Symbol").toUpperCase();
    const status = cell(cells, "Status");
    const filled = brokerNumber(cell(cells, "Filled") || "0");
    if (status !== "Filled") {
      // Cancelled, Failed, Rejected: nothing traded. Partially Filled: the order may still fill, and a
      // later file would list it again with more, so its part is not taken from this line (ADR 0095).
      if (Number.isFinite(filled) && filled > 0)
        return {
          ...base,
          refused: `Status "${status}": ${filled} of ${cell(cells, "Total Qty") || "?"} filled; import it once the order shows Filled, or enter the filled part on Trades`,
        };
      return { ...base, refused: `Status "${status}": the order did not trade` };
    }
    if (!Number.isFinite(filled) || filled <= 0)
      return { ...base, refused: `Filled "${cell(cells, "Filled")}" is not a number above 0` };
    const side = cell(cells, "Side").toLowerCase();
    const sold = side === "sell" || side === "short" || side === "sell short";
    if (!sold && side !== "buy") return { ...base, refused: `Side "${cell(cells, "Side")}" is neither Buy nor Sell` };
    const traded_at = webullTime(cell(cells, "Filled Time"));
    if (!traded_at)
      return { ...base, refused: `Filled Time "${cell(cells, "Filled Time")}" is not like 05/04/2026 10:31:05 EDT` };
    const price = brokerNumber(cell(cells, "Avg Price").replace(/^@/, ""));
    if (!Number.isFinite(price) || price < 0)
      return { ...base, refused: `Avg Price "${cell(cells, "Avg Price")}" is not a number` };

    const fees = 0; // not in the file
    if (/\d/.test(symbol) || symbol.length > 6 || /\b(PUT|CALL)\b/.test(cell(cells, "Name").toUpperCase())) {
      let option: OccParts;
      try {
        option = parseOccSymbol(symbol);
      } catch (error) {
        if (!(error instanceof InvalidOccSymbolError)) throw error;
        return { ...base, refused: `Symbol "${cell(cells, "Symbol")}" is not an option like KO260612P00065000` };
      }
      return {
        ...base,
        trade: {
          kind: sold ? "sell_to_open" : "buy_to_close",
          ticker: option.ticker,
          option_type: option.type,
          strike: option.strike,
          expiry: option.expiration,
          quantity: filled,
          price,
          fees,
          traded_at,
        },
      };
    }
    if (!wheelTickers.has(symbol))
      return {
        ...base,
        refused: `${symbol} shares: the file has no options on ${symbol}, so they are not part of a wheel (add them on Trades if they are)`,
      };
    return {
      ...base,
      trade: {
        kind: sold ? "stock_sell" : "stock_buy",
        ticker: symbol,
        quantity: filled,
        price,
        fees,
        traded_at,
      },
    };
  };
  for (const record of body) yield read(record);
}
