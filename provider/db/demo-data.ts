import type { CategoryIcon } from "#contract/entities.ts";

/** Demo data for the embedded run: real US tickers with reference prices (USD) and sector-typical volatility. */
export interface DemoTicker {
  ticker: string;
  name: string;
  price: number;
  /** Annualised volatility the simulated market uses for this ticker. */
  volatility: number;
}

export const DEMO_TICKERS: DemoTicker[] = [
  { ticker: "AAPL", name: "Apple Inc.", price: 228.5, volatility: 0.26 },
  { ticker: "MSFT", name: "Microsoft Corporation", price: 422.1, volatility: 0.24 },
  { ticker: "GOOGL", name: "Alphabet Inc. Class A", price: 171.3, volatility: 0.29 },
  { ticker: "AMZN", name: "Amazon.com, Inc.", price: 186.4, volatility: 0.31 },
  { ticker: "META", name: "Meta Platforms, Inc.", price: 563.2, volatility: 0.36 },
  { ticker: "NVDA", name: "NVIDIA Corporation", price: 131.6, volatility: 0.52 },
  { ticker: "TSLA", name: "Tesla, Inc.", price: 248.9, volatility: 0.58 },
  { ticker: "BRKB", name: "Berkshire Hathaway Inc. Class B", price: 455.2, volatility: 0.16 },
  { ticker: "JPM", name: "JPMorgan Chase & Co.", price: 221.7, volatility: 0.22 },
  { ticker: "V", name: "Visa Inc.", price: 289.4, volatility: 0.19 },
  { ticker: "MA", name: "Mastercard Incorporated", price: 501.8, volatility: 0.2 },
  { ticker: "JNJ", name: "Johnson & Johnson", price: 156.2, volatility: 0.16 },
  { ticker: "PG", name: "The Procter & Gamble Company", price: 168.9, volatility: 0.15 },
  { ticker: "KO", name: "The Coca-Cola Company", price: 68.3, volatility: 0.14 },
  { ticker: "PEP", name: "PepsiCo, Inc.", price: 162.4, volatility: 0.16 },
  { ticker: "COST", name: "Costco Wholesale Corporation", price: 889.7, volatility: 0.2 },
  { ticker: "WMT", name: "Walmart Inc.", price: 83.1, volatility: 0.17 },
  { ticker: "HD", name: "The Home Depot, Inc.", price: 402.6, volatility: 0.21 },
  { ticker: "DIS", name: "The Walt Disney Company", price: 97.8, volatility: 0.27 },
  { ticker: "NFLX", name: "Netflix, Inc.", price: 712.4, volatility: 0.35 },
  { ticker: "AMD", name: "Advanced Micro Devices, Inc.", price: 152.3, volatility: 0.48 },
  { ticker: "INTC", name: "Intel Corporation", price: 22.9, volatility: 0.45 },
  { ticker: "CRM", name: "Salesforce, Inc.", price: 291.5, volatility: 0.3 },
  { ticker: "ADBE", name: "Adobe Inc.", price: 508.7, volatility: 0.3 },
  { ticker: "PYPL", name: "PayPal Holdings, Inc.", price: 74.6, volatility: 0.38 },
  { ticker: "UNH", name: "UnitedHealth Group Incorporated", price: 590.3, volatility: 0.22 },
  { ticker: "XOM", name: "Exxon Mobil Corporation", price: 117.9, volatility: 0.23 },
  { ticker: "CVX", name: "Chevron Corporation", price: 152.6, volatility: 0.23 },
  { ticker: "PFE", name: "Pfizer Inc.", price: 28.4, volatility: 0.25 },
  { ticker: "SBUX", name: "Starbucks Corporation", price: 97.1, volatility: 0.27 },
  { ticker: "PLTR", name: "Palantir Technologies Inc.", price: 41.2, volatility: 0.62 },
  { ticker: "SOFI", name: "SoFi Technologies, Inc.", price: 10.8, volatility: 0.6 },
];

export const DEMO_CATEGORIES: { name: string; icon: CategoryIcon }[] = [
  { name: "Queen", icon: "queen" },
  { name: "Buy", icon: "buy" },
  { name: "Hold", icon: "hold" },
  { name: "Speculative", icon: "speculative" },
  { name: "Avoid", icon: "avoid" },
];

/** The shared UIP list: ticker, category name, and intrinsic values as a ratio of the reference price. */
export const DEMO_UIP: { ticker: string; category: string; base: number; cons: number }[] = [
  { ticker: "MSFT", category: "Queen", base: 1.12, cons: 0.95 },
  { ticker: "AAPL", category: "Queen", base: 1.05, cons: 0.88 },
  { ticker: "GOOGL", category: "Buy", base: 1.25, cons: 1.08 },
  { ticker: "AMZN", category: "Buy", base: 1.2, cons: 1.02 },
  { ticker: "META", category: "Buy", base: 1.15, cons: 0.97 },
  { ticker: "BRKB", category: "Queen", base: 1.08, cons: 0.96 },
  { ticker: "V", category: "Queen", base: 1.1, cons: 0.94 },
  { ticker: "MA", category: "Hold", base: 1.02, cons: 0.9 },
  { ticker: "COST", category: "Hold", base: 0.8, cons: 0.7 },
  { ticker: "JNJ", category: "Buy", base: 1.18, cons: 1.05 },
  { ticker: "KO", category: "Hold", base: 0.98, cons: 0.88 },
  { ticker: "NVDA", category: "Speculative", base: 1.1, cons: 0.78 },
  { ticker: "TSLA", category: "Speculative", base: 0.7, cons: 0.45 },
  { ticker: "PLTR", category: "Speculative", base: 0.6, cons: 0.4 },
  { ticker: "INTC", category: "Avoid", base: 0.9, cons: 0.7 },
  { ticker: "PFE", category: "Avoid", base: 1.05, cons: 0.85 },
  { ticker: "PYPL", category: "Buy", base: 1.3, cons: 1.1 },
  { ticker: "UNH", category: "Hold", base: 1.05, cons: 0.92 },
];

/** The demo trader's watchlist: ticker and intrinsic values as a ratio of the reference price. */
export const DEMO_WATCHLIST: { ticker: string; base: number; cons: number; recommend: boolean }[] = [
  { ticker: "AAPL", base: 1.05, cons: 0.9, recommend: true },
  { ticker: "MSFT", base: 1.1, cons: 0.95, recommend: true },
  { ticker: "GOOGL", base: 1.22, cons: 1.05, recommend: true },
  { ticker: "KO", base: 1.0, cons: 0.9, recommend: false },
  { ticker: "JPM", base: 1.08, cons: 0.92, recommend: true },
  { ticker: "PYPL", base: 1.3, cons: 1.1, recommend: false },
  { ticker: "DIS", base: 1.2, cons: 1.0, recommend: false },
  { ticker: "SBUX", base: 1.05, cons: 0.88, recommend: false },
];

/** Documented in the README. */
export const DEMO_USERS = [
  {
    username: "demo",
    password: "demo1234",
    email: "demo@example.com",
    first_name: "Dana",
    last_name: "Demo",
    role: "trader",
  },
  {
    username: "admin",
    password: "admin1234",
    email: "admin@example.com",
    first_name: "Alex",
    last_name: "Admin",
    role: "admin",
  },
] as const;

/** Buy levels below a price: 95 %, 90 %, 85 % and 80 %, rounded to whole dollars where the price allows. */
export function demoBuyLevels(price: number): [number, number, number, number] {
  const round = (v: number) => (price >= 20 ? Math.round(v) : Math.round(v * 100) / 100);
  return [round(price * 0.95), round(price * 0.9), round(price * 0.85), round(price * 0.8)];
}

/**
 * The demo trader's capital plan (issue 42, ADR 0081): enough that each flagged stock's single
 * contracts fit (so the demo's Recommendations show every put), with the default limits.
 */
export const DEMO_CAPITAL = {
  capital: 250_000,
  reserve_share: 0.1,
  ticker_limit: 0.25,
  sector_limit: 0.4,
  only_fitting: true,
} as const;
