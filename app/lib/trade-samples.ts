import type { Instrument } from "./trade-journal.ts";
import { ENTRY_STATUSES, EXIT_STATUSES, type EntryStatus, type ExitStatus, type TradeType } from "./trade-schemas.ts";

/**
 * SPEC.md §1/§2: the trades journal is work-in-progress and lists hard-coded sample rows.
 * They are dated relative to `now`, spread so that every period filter, for stocks and for
 * options, shows at least one row and each longer period adds rows.
 */

export interface SampleTrade {
  id: string;
  instrument: Instrument;
  symbol: string;
  /** "Shares", or the option contract ("Put 180 · exp 20 Dec 2026"). */
  detail: string;
  type: TradeType;
  quantity: number;
  entryPrice: number;
  /** null while the trade is open. */
  exitPrice: number | null;
  fees: number;
  /** The exit status once closed, else the entry status (SPEC.md §4 labels). */
  status: string;
  openedAt: string;
  /** Net of fees; null while open. Options count 100 shares a contract. */
  pnl: number | null;
}

interface Seed {
  id: string;
  instrument: Instrument;
  symbol: string;
  strike?: number;
  type: TradeType;
  quantity: number;
  entryPrice: number;
  exitPrice: number | null;
  fees: number;
  status: EntryStatus | ExitStatus;
  /** Age in days (fractional, so rows do not sit on a period's edge). */
  daysAgo: number;
}

/** Ages chosen inside: 7 days (1–6), 30 days (18–25), 2 months (45–50), 3 months (75–80), 6 months (150–160), beyond (300–400). */
// prettier-ignore
const SEEDS: readonly Seed[] = [
  { id: "s1", instrument: "stocks", symbol: "AAPL", type: "buy", quantity: 10, entryPrice: 189.2, exitPrice: 196.4, fees: 2, status: "tp_hit", daysAgo: 1.2 },
  { id: "o1", instrument: "options", symbol: "AMD", strike: 140, type: "sell", quantity: 2, entryPrice: 3.1, exitPrice: null, fees: 1.3, status: "filled", daysAgo: 2.4 },
  { id: "s2", instrument: "stocks", symbol: "MSFT", type: "buy", quantity: 5, entryPrice: 412, exitPrice: null, fees: 1, status: "pending", daysAgo: 4.6 },
  { id: "o2", instrument: "options", symbol: "AAPL", strike: 180, type: "sell", quantity: 1, entryPrice: 2.45, exitPrice: 0.6, fees: 1.3, status: "tp_hit", daysAgo: 5.8 },
  { id: "s3", instrument: "stocks", symbol: "KO", type: "sell", quantity: 20, entryPrice: 61.3, exitPrice: 60.1, fees: 2, status: "closed", daysAgo: 18.3 },
  { id: "o3", instrument: "options", symbol: "SPY", strike: 520, type: "sell", quantity: 1, entryPrice: 5.8, exitPrice: 1.1, fees: 1.3, status: "tp_hit", daysAgo: 24.7 },
  { id: "s4", instrument: "stocks", symbol: "NVDA", type: "buy", quantity: 8, entryPrice: 118.5, exitPrice: 112, fees: 2, status: "sl_hit", daysAgo: 45.5 },
  { id: "o4", instrument: "options", symbol: "PLTR", strike: 22, type: "sell", quantity: 5, entryPrice: 0.85, exitPrice: 1.7, fees: 3.25, status: "sl_hit", daysAgo: 50.2 },
  { id: "s5", instrument: "stocks", symbol: "JPM", type: "buy", quantity: 12, entryPrice: 198, exitPrice: 207.3, fees: 2, status: "tp_hit", daysAgo: 75.4 },
  { id: "o5", instrument: "options", symbol: "MSFT", strike: 400, type: "sell", quantity: 1, entryPrice: 6.2, exitPrice: 0.05, fees: 1.3, status: "closed", daysAgo: 80.6 },
  { id: "s6", instrument: "stocks", symbol: "AMZN", type: "buy", quantity: 6, entryPrice: 178.4, exitPrice: 185.1, fees: 2, status: "closed", daysAgo: 150.3 },
  { id: "o6", instrument: "options", symbol: "KO", strike: 58, type: "sell", quantity: 3, entryPrice: 0.72, exitPrice: 0.1, fees: 1.95, status: "closed", daysAgo: 160.8 },
  { id: "s7", instrument: "stocks", symbol: "TSLA", type: "buy", quantity: 4, entryPrice: 242, exitPrice: 221.5, fees: 2, status: "sl_hit", daysAgo: 300.1 },
  { id: "o7", instrument: "options", symbol: "NVDA", strike: 95, type: "sell", quantity: 2, entryPrice: 4.4, exitPrice: 1.2, fees: 1.3, status: "tp_hit", daysAgo: 400.5 },
];

const DAY_MS = 86_400_000;
/** Sold puts here run about four weeks to expiry. */
const OPTION_DAYS_TO_EXPIRY = 28;
const CONTRACT_SIZE = 100;

const shortDate = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const STATUS_LABELS: Record<string, string> = Object.fromEntries(
  [...ENTRY_STATUSES, ...EXIT_STATUSES].map((s) => [s.value, s.label]),
);

/** Profit of a closed trade, net of fees: a sale gains when the price falls, a purchase when it rises. */
export function tradePnl(
  trade: Pick<SampleTrade, "instrument" | "type" | "quantity" | "entryPrice" | "exitPrice" | "fees">,
): number | null {
  if (trade.exitPrice === null) return null;
  const perUnit = trade.type === "buy" ? trade.exitPrice - trade.entryPrice : trade.entryPrice - trade.exitPrice;
  const units = trade.quantity * (trade.instrument === "options" ? CONTRACT_SIZE : 1);
  return Math.round((perUnit * units - trade.fees) * 100) / 100;
}

export function sampleTrades(now: Date): SampleTrade[] {
  return SEEDS.map(({ strike, daysAgo, status, ...seed }) => {
    const opened = new Date(now.getTime() - daysAgo * DAY_MS);
    const expiry = new Date(opened.getTime() + OPTION_DAYS_TO_EXPIRY * DAY_MS);
    const trade = {
      ...seed,
      detail: strike === undefined ? "Shares" : `Put ${strike} · exp ${shortDate.format(expiry)}`,
      status: STATUS_LABELS[status] ?? status,
      openedAt: opened.toISOString(),
    };
    return { ...trade, pnl: tradePnl(trade) };
  });
}
