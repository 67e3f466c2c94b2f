import { brokerNumber, type CsvLine } from "./csv.ts";
import { positionOf, type PositionsRead } from "./positions.ts";

/**
 * tastytrade, Positions → Export as CSV (docs/decisions/0098-positions-files-and-broker-cash.md): the
 * columns the positions table shows, among them Account, Symbol, Type, Quantity (negative when short),
 * Exp Date, Strike Price, Call/Put and Trade Price (what the position was opened at, a share). The file
 * carries no date and no cash: its positions are as of the moment it is imported. Null when the file
 * is not a positions export (a transactions file is read by tastytrade.ts).
 */
const REQUIRED = ["Symbol", "Type", "Quantity", "Exp Date", "Strike Price", "Call/Put"];

export function isTastytradePositions(records: readonly CsvLine[]): boolean {
  const header = records[0]?.cells ?? [];
  return REQUIRED.every((name) => header.includes(name)) && !header.includes("Date");
}

/** "12/18/26", "12/18/2026" or "2026-12-18". */
function dayOf(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text.trim());
  if (!us) return null;
  const year = us[3]!.length === 2 ? `20${us[3]}` : us[3];
  return `${year}-${us[1]!.padStart(2, "0")}-${us[2]!.padStart(2, "0")}`;
}

export function tastytradePositions(records: readonly CsvLine[], now: number): PositionsRead | null {
  if (!isTastytradePositions(records)) return null;
  const [header, ...rows] = records;
  const index = new Map(header!.cells.map((name, i) => [name, i]));
  const read: PositionsRead = { as_of: new Date(now).toISOString(), positions: [], cash: null, refused: [] };
  for (const { line, cells } of rows) {
    const cell = (name: string) => (index.has(name) ? (cells[index.get(name)!] ?? "") : "");
    const type = cell("Type").toUpperCase();
    const quantity = brokerNumber(cell("Quantity"));
    const price = cell("Trade Price").trim();
    const cost = price === "" || price === "--" ? null : Math.abs(brokerNumber(price));
    const ticker = (cell("Symbol").trim().split(/\s+/)[0] ?? "").toUpperCase();
    const fields = { ticker, quantity, cost_basis: cost !== null && Number.isFinite(cost) ? cost : null };
    if (cost !== null && !Number.isFinite(cost)) {
      read.refused.push({ line, reason: `Open position: Trade Price "${price}" is not a number` });
    } else if (/OPTION/.test(type) && !/FUTURE/.test(type)) {
      const expiry = dayOf(cell("Exp Date"));
      const right = cell("Call/Put").trim().toUpperCase();
      if (!expiry) {
        read.refused.push({ line, reason: `Open position: Exp Date "${cell("Exp Date")}" is not like 12/18/26` });
        continue;
      }
      add(line, {
        ...fields,
        kind: "option",
        option_type: right.startsWith("P") ? "put" : right.startsWith("C") ? "call" : null,
        strike: brokerNumber(cell("Strike Price")),
        expiry,
      });
    } else if (type === "STOCK" || type === "EQUITY") {
      add(line, { ...fields, kind: "shares", option_type: null, strike: null, expiry: null });
    }
    // Futures, their options and crypto are outside the wheel's book and not compared.
  }
  return read;

  function add(line: number, fields: Record<string, unknown>) {
    const result = positionOf(line, fields);
    if ("position" in result) read.positions.push(result.position);
    else read.refused.push(result.refused);
  }
}
