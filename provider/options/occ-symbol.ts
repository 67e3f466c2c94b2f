/**
 * OCC option symbols: root, expiry YYMMDD, C or P, strike × 1000 in 8 digits. The official form
 * pads the root to 6 characters with spaces (21 characters); vendors mostly drop the spaces.
 */
import type { OptionType } from "./black-scholes.ts";

export interface OccParts {
  ticker: string;
  /** YYYY-MM-DD */
  expiration: string;
  type: OptionType;
  strike: number;
}

export class InvalidOccSymbolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidOccSymbolError";
  }
}

const ROOT = /^[A-Z0-9]{1,6}$/;
const SYMBOL = /^([A-Z0-9]{1,6}) *(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;

function validDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** `AAPL261218P00180000`, or with `padded` the 21-character `AAPL  261218P00180000`. */
export function formatOccSymbol(parts: OccParts, options: { padded?: boolean } = {}): string {
  const root = parts.ticker.trim().toUpperCase();
  if (!ROOT.test(root)) {
    throw new InvalidOccSymbolError(`Ticker "${parts.ticker}" cannot be an OCC root (1 to 6 letters or digits)`);
  }
  const m = /^20(\d{2})-(\d{2})-(\d{2})$/.exec(parts.expiration);
  if (!m || !validDate(Number(`20${m[1]}`), Number(m[2]), Number(m[3]))) {
    throw new InvalidOccSymbolError(`Expiration "${parts.expiration}" is not a date YYYY-MM-DD in 2000–2099`);
  }
  const thousandths = Math.round(parts.strike * 1000);
  if (!(thousandths > 0 && thousandths < 1e8)) {
    throw new InvalidOccSymbolError(`Strike ${parts.strike} is outside what an OCC symbol can hold`);
  }
  const paddedRoot = options.padded ? root.padEnd(6, " ") : root;
  const cp = parts.type === "call" ? "C" : "P";
  return `${paddedRoot}${m[1]}${m[2]}${m[3]}${cp}${String(thousandths).padStart(8, "0")}`;
}

/** Reads the compact or the space-padded form. */
export function parseOccSymbol(symbol: string): OccParts {
  const m = SYMBOL.exec(symbol.trim().toUpperCase());
  if (!m) throw new InvalidOccSymbolError(`"${symbol}" is not an OCC option symbol like AAPL261218P00180000`);
  const [, root, yy, mm, dd, cp, strike] = m as unknown as [string, string, string, string, string, string, string];
  if (!validDate(2000 + Number(yy), Number(mm), Number(dd))) {
    throw new InvalidOccSymbolError(`"${symbol}" has an impossible expiry date 20${yy}-${mm}-${dd}`);
  }
  return {
    ticker: root,
    expiration: `20${yy}-${mm}-${dd}`,
    type: cp === "C" ? "call" : "put",
    strike: Number(strike) / 1000,
  };
}
