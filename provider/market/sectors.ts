/**
 * Sectors for the capital plan's sector limit (issue 42, ADR 0081), in the eleven GICS sector names.
 * The simulated market gives the demo tickers their real sector and any other ticker a plausible
 * one from its letters (the same every time); Yahoo's own names map onto GICS here.
 */
export const GICS_SECTORS = [
  "Communication Services",
  "Consumer Discretionary",
  "Consumer Staples",
  "Energy",
  "Financials",
  "Health Care",
  "Industrials",
  "Information Technology",
  "Materials",
  "Real Estate",
  "Utilities",
] as const;

const DEMO_SECTORS: Record<string, (typeof GICS_SECTORS)[number]> = {
  AAPL: "Information Technology",
  MSFT: "Information Technology",
  GOOGL: "Communication Services",
  AMZN: "Consumer Discretionary",
  META: "Communication Services",
  NVDA: "Information Technology",
  TSLA: "Consumer Discretionary",
  BRKB: "Financials",
  JPM: "Financials",
  V: "Financials",
  MA: "Financials",
  JNJ: "Health Care",
  PG: "Consumer Staples",
  KO: "Consumer Staples",
  PEP: "Consumer Staples",
  COST: "Consumer Staples",
  WMT: "Consumer Staples",
  HD: "Consumer Discretionary",
  DIS: "Communication Services",
  NFLX: "Communication Services",
  AMD: "Information Technology",
  INTC: "Information Technology",
  CRM: "Information Technology",
  ADBE: "Information Technology",
  PYPL: "Financials",
  UNH: "Health Care",
  XOM: "Energy",
  CVX: "Energy",
  PFE: "Health Care",
  SBUX: "Consumer Discretionary",
  PLTR: "Information Technology",
  SOFI: "Financials",
};

/** The simulated market's sector of a ticker: the real one for the demo tickers, else one picked by its letters. */
export function simulatedSector(ticker: string): string {
  const symbol = ticker.trim().toUpperCase();
  const known = DEMO_SECTORS[symbol];
  if (known) return known;
  let hash = 0;
  for (const ch of symbol) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return GICS_SECTORS[hash % GICS_SECTORS.length]!;
}

/** Yahoo's sector names (Morningstar's) onto GICS; an unknown name is kept as Yahoo wrote it. */
const YAHOO_TO_GICS: Record<string, (typeof GICS_SECTORS)[number]> = {
  Technology: "Information Technology",
  "Communication Services": "Communication Services",
  "Consumer Cyclical": "Consumer Discretionary",
  "Consumer Defensive": "Consumer Staples",
  Energy: "Energy",
  "Financial Services": "Financials",
  Healthcare: "Health Care",
  Industrials: "Industrials",
  "Basic Materials": "Materials",
  "Real Estate": "Real Estate",
  Utilities: "Utilities",
};

export function gicsOfYahoo(sector: string | undefined | null): string | null {
  if (!sector) return null;
  return YAHOO_TO_GICS[sector] ?? sector.slice(0, 40);
}

/**
 * Morningstar's sector codes (asset_classification.morningstar_sector_code in Tradier's company
 * fundamentals) onto GICS, through Morningstar's sector names, which Yahoo uses too. An unknown code is null.
 */
const MORNINGSTAR_SECTOR_NAMES: Record<number, string> = {
  101: "Basic Materials",
  102: "Consumer Cyclical",
  103: "Financial Services",
  104: "Real Estate",
  205: "Consumer Defensive",
  206: "Healthcare",
  207: "Utilities",
  308: "Communication Services",
  309: "Energy",
  310: "Industrials",
  311: "Technology",
};

export function gicsOfMorningstarCode(code: unknown): string | null {
  const name = typeof code === "number" ? MORNINGSTAR_SECTOR_NAMES[code] : undefined;
  return name ? gicsOfYahoo(name) : null;
}
