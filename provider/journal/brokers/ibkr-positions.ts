import { brokerNumber, type CsvLine } from "./csv.ts";
import { positionOf, type PositionsRead } from "./positions.ts";
import { zonedToIso } from "./zone.ts";

/**
 * The "Open Positions" section of an Interactive Brokers activity statement (issue 43): a Summary line
 * per position (Lot lines break it down and are not read), Quantity negative when short, Cost Price a
 * share (an option's premium a share). The positions are as of the end of the statement's period, New
 * York's day. Null when the statement has no such section (it was not selected in the export).
 */
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const SHORT_MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

export function ibkrPositions(records: readonly CsvLine[], now: number): PositionsRead | null {
  if (!records.some((r) => r.cells[0] === "Open Positions" && r.cells[1] === "Header")) return null;
  const read: PositionsRead = {
    as_of: periodEnd(records) ?? new Date(now).toISOString(),
    positions: [],
    cash: null,
    refused: [],
  };
  endingCash(records, read);
  let header: Map<string, number> | null = null;
  for (const { line, cells } of records) {
    if (cells[0] !== "Open Positions") continue;
    if (cells[1] === "Header") {
      header = new Map(cells.map((name, i) => [name, i]));
      continue;
    }
    if (cells[1] !== "Data" || !header) continue;
    const cell = (name: string) => (header!.has(name) ? (cells[header!.get(name)!] ?? "") : "");
    if (header.has("DataDiscriminator") && cell("DataDiscriminator") !== "Summary") continue;
    const category = cell("Asset Category");
    const symbol = cell("Symbol").toUpperCase();
    const quantity = brokerNumber(cell("Quantity"));
    const costPrice = brokerNumber(cell("Cost Price"));
    const cost = Number.isFinite(costPrice) ? Math.abs(costPrice) : null;
    if (/option/i.test(category)) {
      const m = /^([A-Z0-9.]+)\s+(\d{2})([A-Z]{3})(\d{2})\s+(\d+(?:\.\d+)?)\s+([PC])$/.exec(symbol);
      const month = m ? SHORT_MONTHS.indexOf(m[3]!) : -1;
      if (!m || month < 0) {
        read.refused.push({ line, reason: `Open position: option symbol "${symbol}" is not like "KO 30JAN26 50 P"` });
        continue;
      }
      add(line, {
        ticker: m[1],
        kind: "option",
        option_type: m[6] === "P" ? "put" : "call",
        strike: Number(m[5]),
        expiry: `20${m[4]}-${String(month + 1).padStart(2, "0")}-${m[2]}`,
        quantity,
        cost_basis: cost,
      });
    } else if (/stock/i.test(category)) {
      add(line, {
        ticker: symbol,
        kind: "shares",
        option_type: null,
        strike: null,
        expiry: null,
        quantity,
        cost_basis: cost,
      });
    }
    // Other categories (bonds, forex, futures) are outside the wheel's book and not compared.
  }
  return read;

  function add(line: number, fields: Record<string, unknown>) {
    const result = positionOf(line, fields);
    if ("position" in result) read.positions.push(result.position);
    else read.refused.push(result.refused);
  }
}

/** "January 1, 2026 - March 31, 2026" (or one day): the end of its last day in New York. */
function periodEnd(records: readonly CsvLine[]): string | null {
  const period = records.find((r) => r.cells[0] === "Statement" && r.cells[1] === "Data" && r.cells[2] === "Period");
  const m = /([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})\s*$/.exec(period?.cells[3] ?? "");
  const month = m ? MONTHS.indexOf(m[1]!.toLowerCase()) : -1;
  if (!m || month < 0) return null;
  return zonedToIso(`${m[3]}-${String(month + 1).padStart(2, "0")}-${m[2]!.padStart(2, "0")}`, "23:59:59");
}

/**
 * The Cash Report's "Ending Cash" of the base currency (the account's cash at the period's end, ADR 0098):
 * `Cash Report,Data,Ending Cash,Base Currency Summary,<Total>,…`. A USD line stands in when the
 * statement has no base summary. An unreadable figure is refused with its line.
 */
function endingCash(records: readonly CsvLine[], read: PositionsRead): void {
  let header: Map<string, number> | null = null;
  let usd: { line: number; text: string } | null = null;
  let base: { line: number; text: string } | null = null;
  for (const { line, cells } of records) {
    if (cells[0] !== "Cash Report") continue;
    if (cells[1] === "Header") header = new Map(cells.map((name, i) => [name, i]));
    if (cells[1] !== "Data" || !header) continue;
    const cell = (name: string) => (header!.has(name) ? (cells[header!.get(name)!] ?? "") : "");
    if (cell("Currency Summary") !== "Ending Cash") continue;
    const found = { line, text: cell("Total") };
    if (cell("Currency") === "Base Currency Summary") base = found;
    else if (cell("Currency") === "USD") usd = found;
  }
  const ending = base ?? usd;
  if (!ending) return;
  const cash = brokerNumber(ending.text);
  if (Number.isFinite(cash)) read.cash = Math.round(cash * 100) / 100;
  else read.refused.push({ line: ending.line, reason: `Cash Report: Ending Cash "${ending.text}" is not a number` });
}
