import type { Db } from "#provider/db/client.ts";
import * as store from "./store.ts";
import { replay } from "./wheel.ts";

/**
 * The journal as a CSV file, and the cell guard that keeps a spreadsheet from running what a
 * trader (or a broker file) wrote in a note as a formula (CSV injection; issue 40, finding 7).
 */

const EXPORT_COLUMNS = [
  "id",
  "traded_at",
  "kind",
  "ticker",
  "option_type",
  "strike",
  "expiry",
  "occ_symbol",
  "quantity",
  "price",
  "fees",
  "realised_pnl",
  "rolled_from",
  "portfolio",
  "strategy",
  "notes",
  "source",
] as const;

/** Whitespace of any kind a spreadsheet may skip before a formula: `\s` (NBSP, U+3000 …) and the zero-width ones. */
const SPACE = "\\s\\u200B-\\u200D\\u2060";
/** What starts a formula: = + - @, their fullwidth (＝＋－＠) and small (﹦﹢﹣﹫) forms, which some spreadsheets read alike. */
const FORMULA = "=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20\\uFE66\\uFE62\\uFE63\\uFE6B";
/** The field separators of the common locales (comma, semicolon, tab, pipe) and line breaks. */
const SEPARATOR = ",;\\t|\\r\\n";
const FORMULA_AT_START = new RegExp(`^[${SPACE}]*[${FORMULA}]`, "u");
/** A formula that starts a field of its own once a spreadsheet splits the text on one of its separators. */
const FORMULA_AFTER_SEPARATOR = new RegExp(`([${SEPARATOR}][${SPACE}]*)(?=[${FORMULA}])`, "gu");
const NEEDS_QUOTES = new RegExp(`["${SEPARATOR}]`, "u");

/**
 * One CSV cell. Text a spreadsheet could run gets a `'` (which spreadsheets read as "this is
 * text") before the whole cell when it starts a formula after any whitespace, or starts with a
 * tab or a line break; and before each formula that follows a separator of any common locale
 * (`x;=1+1;y` split on semicolons). A cell holding a separator or a quote is quoted. Numbers are
 * written as they are (a negative P/L stays a number).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string") {
    text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
    if (FORMULA_AT_START.test(text) || /^[\t\r\n]/.test(text)) text = `'${text}`;
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole journal as CSV, oldest first, with each closing trade's realised P/L (net of fees). */
export async function exportCsv(db: Db, userId: number, now = Date.now()): Promise<string> {
  const trades = await store.listTrades(db, userId);
  const result = replay(trades.map(store.wheelTrade), now);
  const pnl = (id: number) => (result.ok ? (result.wheel.results.get(id)?.pnl ?? null) : null);
  const lines = trades.map((t) => {
    const row: Record<(typeof EXPORT_COLUMNS)[number], unknown> = { ...t, realised_pnl: pnl(t.id) };
    return EXPORT_COLUMNS.map((name) => csvCell(row[name])).join(",");
  });
  return [EXPORT_COLUMNS.join(","), ...lines].join("\r\n") + "\r\n";
}
