import { brokerNumber, type CsvLine } from "./csv.ts";
import { positionOf, type PositionsRead } from "./positions.ts";
import { zonedToIso } from "./zone.ts";

/**
 * Charles Schwab, Accounts → Positions → Export (docs/decisions/0098-positions-files-and-broker-cash.md):
 * a title line "Positions for account Individual ...123 as of 04:10 PM ET, 2026/11/27" (older files:
 * "… as of 11/27/2026"), then the columns Symbol, Description, "Qty (Quantity)" (or Quantity), Price,
 * …, "Mkt Val (Market Value)", …, Cost Basis (dollars for the whole position), …, Security Type. An
 * option's Symbol is like "KO 12/18/2026 62.50 P", its quantity negative when written. The
 * "Cash & Cash Investments" line's market value is the account's cash; "Account Total" sums the rest.
 * An all-accounts file repeats title, header and lines per account: positions and cash are summed.
 */
const TITLE = /^Positions for account\b/i;
const OPTION = /^([A-Z0-9.]+)\s+(\d{2})\/(\d{2})\/(\d{4})\s+(\d+(?:\.\d+)?)\s+([PC])$/;

export const isSchwabPositions = (records: readonly CsvLine[]) => TITLE.test(records[0]?.cells[0] ?? "");

/** The title's moment: its time (New York's) when it gives one, else the end of its day. */
function asOfTitle(title: string): string | null {
  const m =
    /as of\s+(?:(\d{1,2}):(\d{2})\s*(AM|PM)\s*ET,?\s*)?(\d{4})\/(\d{2})\/(\d{2})|as of\s+(?:(\d{1,2}):(\d{2})\s*(AM|PM)\s*ET,?\s*)?(\d{2})\/(\d{2})\/(\d{4})/i.exec(
      title,
    );
  if (!m) return null;
  const [hour, minute, half] = m[1] ? [m[1], m[2], m[3]] : [m[7], m[8], m[9]];
  const day = m[4] ? `${m[4]}-${m[5]}-${m[6]}` : `${m[12]}-${m[10]}-${m[11]}`;
  if (!hour) return zonedToIso(day, "23:59:59");
  const h24 = (Number(hour) % 12) + (half!.toUpperCase() === "PM" ? 12 : 0);
  return zonedToIso(day, `${String(h24).padStart(2, "0")}:${minute}:00`);
}

export function schwabPositions(records: readonly CsvLine[], now: number): PositionsRead | null {
  if (!isSchwabPositions(records)) return null;
  const read: PositionsRead = {
    as_of: asOfTitle(records[0]!.cells[0]!) ?? new Date(now).toISOString(),
    positions: [],
    cash: null,
    refused: [],
  };
  let index: Map<string, number> | null = null;
  for (const { line, cells } of records) {
    if (TITLE.test(cells[0] ?? "")) {
      index = null;
      continue;
    }
    if (cells[0] === "Symbol") {
      index = new Map(cells.map((name, i) => [name, i]));
      continue;
    }
    if (!index) continue;
    const cell = (...names: string[]) => {
      const at = names.map((n) => index!.get(n)).find((i) => i !== undefined);
      return at === undefined ? "" : (cells[at] ?? "");
    };
    const symbol = cell("Symbol").trim();
    const value = cell("Mkt Val (Market Value)", "Market Value");
    if (/^cash & cash investments$/i.test(symbol)) {
      const cash = brokerNumber(value);
      if (Number.isFinite(cash)) read.cash = Math.round(((read.cash ?? 0) + cash) * 100) / 100;
      else read.refused.push({ line, reason: `Cash & Cash Investments: market value "${value}" is not a number` });
      continue;
    }
    if (/^account total$/i.test(symbol) || symbol === "") continue;
    const type = cell("Security Type").trim();
    const quantity = brokerNumber(cell("Qty (Quantity)", "Quantity"));
    const basisText = cell("Cost Basis").trim();
    const total = basisText === "" || basisText === "--" || /^n\/a$/i.test(basisText) ? null : brokerNumber(basisText);
    if (total !== null && !Number.isFinite(total)) {
      read.refused.push({ line, reason: `Open position: Cost Basis "${basisText}" is not a number` });
      continue;
    }
    const option = OPTION.exec(symbol.toUpperCase());
    const units = Math.abs(quantity) * (option ? 100 : 1);
    const cost = total === null || !(units > 0) ? null : Math.round((Math.abs(total) / units) * 1e6) / 1e6;
    if (/^option/i.test(type) || option) {
      if (!option) {
        read.refused.push({
          line,
          reason: `Open position: option symbol "${symbol}" is not like "KO 12/18/2026 62.50 P"`,
        });
        continue;
      }
      add(line, {
        ticker: option[1],
        kind: "option",
        option_type: option[6] === "P" ? "put" : "call",
        strike: Number(option[5]),
        expiry: `${option[4]}-${option[2]}-${option[3]}`,
        quantity,
        cost_basis: cost,
      });
    } else if (/^(equity|etfs?\b)/i.test(type)) {
      add(line, {
        ticker: symbol.toUpperCase(),
        kind: "shares",
        option_type: null,
        strike: null,
        expiry: null,
        quantity,
        cost_basis: cost,
      });
    }
    // Mutual funds, bonds and the like are outside the wheel's book and not compared.
  }
  return read;

  function add(line: number, fields: Record<string, unknown>) {
    const result = positionOf(line, fields);
    if ("position" in result) read.positions.push(result.position);
    else read.refused.push(result.refused);
  }
}
