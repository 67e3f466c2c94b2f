/**
 * The market-data port: everything the provider needs from a quote vendor. The simulated market
 * (default, offline) and real adapters implement it; callers never know which one they have.
 */
import { MarketSource as MarketSourceSchema, type DailyBar } from "#contract/entities.ts";
import { HttpError } from "#provider/http/errors.ts";
import type { OptionType } from "#provider/options/black-scholes.ts";

export type { DailyBar, OptionType };

/** Where a figure came from; shown beside it with its age. */
export const MARKET_SOURCES = MarketSourceSchema.options;
export type MarketSource = (typeof MARKET_SOURCES)[number];

/** Where a quote or chain came from and how old it is. */
export interface Provenance {
  source: MarketSource;
  /** When the price was made: now during the session, the last close outside it. */
  asOf: Date;
  /**
   * True when the price predates the latest session (see freshness.ts): shown with its age, never
   * used to generate recommendations.
   */
  stale: boolean;
  /**
   * Set when the vendor failed (rate limit, outage) and this is the last good answer kept from an
   * earlier request, fetched at `fetchedAt`; `asOf` is still the figure's own time.
   */
  lastGood?: { fetchedAt: Date; reason: string } | undefined;
  /**
   * True when the simulated market is replaying its latest session because the exchange is closed
   * (the demo market, docs/decisions/0037): `asOf` is now, the price a replayed one. Never set by a
   * live source.
   */
  replay?: boolean | undefined;
}

export interface Quote extends Provenance {
  ticker: string;
  price: number;
  previousClose?: number;
  /** The session's bar so far (the last session's outside market hours), when the source gives it. */
  session?: DailyBar;
}

export interface OptionQuote {
  /** OCC symbol, compact form, e.g. AAPL261218P00180000. */
  symbol: string;
  type: OptionType;
  strike: number;
  /** 0 when nobody bids (far out of the money). */
  bid: number;
  ask: number;
  last: number;
  volume: number;
  openInterest: number;
  /** Annualised, as a fraction (0.25 = 25%); 0 when the source has none. */
  impliedVolatility: number;
  /**
   * "quote" (default): bid as quoted. "last": the market was closed, the vendor quoted no bid and
   * the contract traded in the latest session, so its last trade stands in for the bid (capped at
   * the ask when there is one); see docs/decisions/0030.
   */
  bidSource?: "quote" | "last" | undefined;
  /** The vendor's greeks when it gives them (Tradier); theta per day, vega per volatility point. */
  greeks?: { delta: number; gamma: number; theta: number; vega: number; rho: number } | undefined;
}

export interface OptionExpiration {
  /** YYYY-MM-DD; options stop trading at 16:00 New York time that day. */
  expiration: string;
  options: OptionQuote[];
}

export interface OptionChain extends Provenance {
  ticker: string;
  spot: number;
  /** Soonest first. */
  expirations: OptionExpiration[];
  /** The model inputs behind the quotes when the source knows them (continuous rate and yield). */
  rate?: number;
  dividendYield?: number;
}

/** One daily close of an option, oldest first in a history. */
export interface OptionClose {
  time: string;
  close: number;
}

export interface MarketData {
  /** Which source this is (MARKET_DATA), for the market status the screens show. */
  readonly source?: MarketSource | undefined;
  /** True for the demo market that replays a session while the exchange is closed (docs/decisions/0037). */
  readonly replaysWhenClosed?: boolean | undefined;
  /** The market's clock when it is not the real one (a simulated market read at set instants). */
  now?(): Date;
  quote(ticker: string): Promise<Quote>;
  /** undefined when the ticker is unknown. */
  companyName(ticker: string): Promise<string | undefined>;
  /** The last `days` trading days (Mon–Fri, exchange holidays excluded), oldest first; today's bar is partial while the market is open. */
  dailyHistory(ticker: string, days: number): Promise<DailyBar[]>;
  optionChain(ticker: string): Promise<OptionChain>;
  /** Daily closes of one option (OCC symbol) over the last `days` trading days, for its weekly low and high. */
  optionHistory(symbol: string, days: number): Promise<OptionClose[]>;
  /** YYYY-MM-DD of the next earnings report, today included; null when none is known. */
  nextEarningsDate(ticker: string): Promise<string | null>;
  /**
   * The next ex-dividend date (YYYY-MM-DD, today included) and the dividend per share, null when
   * none is known; a source without a dividend calendar leaves it out and the ex-dividend alert
   * is not raised (ADR 0034).
   */
  nextExDividend?(ticker: string): Promise<{ date: string; amount: number } | null>;
  /**
   * The company's sector (GICS names, provider/market/sectors.ts) for the capital plan's sector
   * limit (ADR 0081); null when the source does not know it. A source without sectors leaves it out.
   */
  sector?(ticker: string): Promise<string | null>;
  /**
   * Past daily ~30-day at-the-money IVs over the last `days` trading days, oldest first, for a
   * source that can reconstruct them (the simulated market). Without it the IV rank builds up
   * from the IVs stored at each run ("building: n of 20 days").
   */
  atmIvHistory?(ticker: string, days: number): Promise<{ day: string; iv: number }[]>;
  /**
   * The continuous risk-free rate (a fraction) the source prices with, the one its chains carry:
   * RISK_FREE_RATE when set, Yahoo's 13-week T-bill, else rates.ts's fallback. Read it through
   * `marketRate` (rates.ts), which gives the fallback for a source without it.
   */
  riskFreeRate?(): Promise<number>;
}

/** A vendor failure with the HTTP status the provider should answer: 404 unknown, 429 rate limited, 503 down. */
export class MarketDataError extends HttpError {
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(status, message, headers);
    this.name = "MarketDataError";
  }
}

export const unknownTicker = (ticker: string) => new MarketDataError(404, `Unknown ticker: ${ticker}`);
export const vendorDown = (detail = "Market data is unavailable right now, please try again later") =>
  new MarketDataError(503, detail);
/** A price older than the latest session: shown with its age, never used to generate (docs/decisions/0030). */
export const staleMarketData = (ticker: string, asOf: Date) =>
  new MarketDataError(
    503,
    `Market data for ${ticker} is from ${asOf.toISOString()}, before the latest session; no recommendations are made from it`,
  );
export const rateLimited = (retryAfterSeconds = 60) =>
  new MarketDataError(429, `Too many market data requests; try again in ${retryAfterSeconds} seconds`, {
    "Retry-After": String(retryAfterSeconds),
  });
