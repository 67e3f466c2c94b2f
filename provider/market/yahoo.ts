/**
 * Real market data from Yahoo Finance through the yahoo-finance2 package (MARKET_DATA=yahoo):
 * quotes and company names (quote), daily history of a stock or an option (chart), option chains
 * (options, one request per expiration in the window the engine looks at) and the next earnings
 * date (the quote's earnings timestamps). Chains carry the model inputs: the risk-free rate from
 * the 13-week T-bill (^IRX, in percent) unless RISK_FREE_RATE sets it, and the dividend yield
 * (Yahoo's `dividendYield` is in percent). Quotes older than the latest session are marked stale;
 * after hours a zero bid falls back to a same-session last trade (freshness.ts). A 429 or an
 * outage answers the last good quote or chain, marked with its age. Whatever goes wrong at the vendor becomes a
 * MarketDataError with the status the provider answers: 404 unknown ticker, 429 rate limited,
 * 503 unreachable, failing or answering in a shape the library no longer recognises.
 */
import YahooFinance from "yahoo-finance2";
import { formatOccSymbol, parseOccSymbol, InvalidOccSymbolError } from "#provider/options/occ-symbol.ts";
import { isMarketOpen, isoDateOf, nyClock } from "./calendar.ts";
import { closedMarketBid, isStale, latestSessionOpen } from "./freshness.ts";
import { createLastGood, markLastGood } from "./last-good.ts";
import { gicsOfYahoo } from "./sectors.ts";
import { FALLBACK_RISK_FREE_RATE, rateFromTBill, yieldFromPercent } from "./rates.ts";
import {
  MarketDataError,
  rateLimited,
  unknownTicker,
  vendorDown,
  type DailyBar,
  type MarketData,
  type OptionChain,
  type OptionClose,
  type OptionExpiration,
  type OptionQuote,
  type Quote,
} from "./port.ts";

export interface YahooMarketOptions {
  /** The HTTP client the library uses (tests replay recorded responses through it). */
  fetch?: typeof fetch | undefined;
  /** Longest wait for one vendor request. */
  timeoutMs?: number | undefined;
  /** Expirations further out than this are not fetched (the engine keeps 7–60 days). */
  maxExpiryDays?: number | undefined;
  /** Requests in flight at once. */
  concurrency?: number | undefined;
  /** The clock (tests pin it). */
  now?: (() => Date) | undefined;
  /** RISK_FREE_RATE: a continuous rate as a fraction; unset, the 13-week T-bill (^IRX) is read. */
  riskFreeRate?: number | undefined;
}

/** The T-bill symbol and how long its rate is reused (it moves a few basis points a day). */
const TBILL = "^IRX";
const RATE_TTL_MS = 3_600_000;

const DAY_MS = 86_400_000;
const nyDate = (date: Date) => isoDateOf(nyClock(date).dayNumber);
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** The error a caller of the port sees for whatever the library threw. */
function toMarketDataError(error: unknown, symbol: string): MarketDataError {
  if (error instanceof MarketDataError) return error;
  const e = error as { name?: string; message?: string; code?: unknown };
  const message = String(e?.message ?? "");
  const status = typeof e?.code === "number" ? e.code : undefined;
  if (status === 429 || /too many requests|rate limit/i.test(message)) return rateLimited(60);
  if (status === 404 || /no data found|not found|delisted|invalid symbol/i.test(message)) return unknownTicker(symbol);
  if (e?.name === "BadRequestError") return new MarketDataError(400, `Market data refused the request for ${symbol}`);
  if (e?.name === "FailedYahooValidationError") {
    return vendorDown("Market data came back in a shape we do not recognise; please try again later");
  }
  return vendorDown();
}

type Client = InstanceType<typeof YahooFinance>;

export function createYahooMarket(options: YahooMarketOptions = {}): MarketData {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => new Date());
  const maxExpiryDays = options.maxExpiryDays ?? 70;
  const client: Client = new YahooFinance({
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      baseFetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) })) as typeof fetch,
    queue: { concurrency: options.concurrency ?? 4 },
    versionCheck: false,
    suppressNotices: ["yahooSurvey"],
    validation: { logErrors: false, logOptionsErrors: false },
    logger: {
      info: () => {},
      debug: () => {},
      dir: () => {},
      warn: (...args: unknown[]) => console.error("[yahoo]", ...args),
      error: (...args: unknown[]) => console.error("[yahoo]", ...args),
    },
  });

  const guarded = async <T>(symbol: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw toMarketDataError(error, symbol);
    }
  };

  const rawQuote = async (ticker: string) => {
    const symbol = ticker.trim().toUpperCase();
    const quote = await guarded(symbol, () => client.quote(symbol));
    if (!quote || num(quote.regularMarketPrice) === undefined) throw unknownTicker(symbol);
    return quote;
  };

  /** Daily bars of a stock or option symbol over roughly the last `days` trading days. */
  const chartBars = async (symbol: string, days: number): Promise<DailyBar[]> => {
    const span = Math.ceil((Math.max(1, days) * 7) / 5) + 10;
    const result = await guarded(symbol, () =>
      client.chart(symbol, { period1: new Date(now().getTime() - span * DAY_MS), interval: "1d" }),
    );
    const bars: DailyBar[] = [];
    for (const q of result.quotes) {
      const close = num(q.close);
      if (close === undefined) continue;
      bars.push({
        time: nyDate(new Date(q.date)),
        open: num(q.open) ?? close,
        high: num(q.high) ?? close,
        low: num(q.low) ?? close,
        close,
        volume: Math.max(0, Math.round(num(q.volume) ?? 0)),
      });
    }
    return bars.slice(-Math.max(1, Math.floor(days)));
  };

  const lastGood = createLastGood(now);
  let rateHeld: { rate: number; at: number } | undefined;
  /** The rate for chains: the setting, else ^IRX (reused for an hour), else the last one read, else 4.5 %. */
  const riskFreeRate = async (): Promise<number> => {
    if (options.riskFreeRate !== undefined) return options.riskFreeRate;
    if (rateHeld && now().getTime() - rateHeld.at < RATE_TTL_MS) return rateHeld.rate;
    try {
      const q = await client.quote(TBILL);
      const percent = num(q?.regularMarketPrice);
      if (percent === undefined || percent < 0 || percent > 25) throw new Error(`${TBILL} quoted ${percent}`);
      rateHeld = { rate: rateFromTBill(percent), at: now().getTime() };
      return rateHeld.rate;
    } catch (error) {
      if (rateHeld) return rateHeld.rate;
      console.error(
        `[yahoo] no ${TBILL} rate (${String((error as Error)?.message ?? error)}); using ${FALLBACK_RISK_FREE_RATE}`,
      );
      return FALLBACK_RISK_FREE_RATE;
    }
  };

  const toQuote = (q: Awaited<ReturnType<typeof rawQuote>>): Quote => {
    const price = q.regularMarketPrice as number;
    const asOf = q.regularMarketTime ? new Date(q.regularMarketTime) : now();
    const open = num(q.regularMarketOpen);
    const high = num(q.regularMarketDayHigh);
    const low = num(q.regularMarketDayLow);
    const result: Quote = { ticker: q.symbol, price, asOf, source: "yahoo", stale: isStale(asOf, now()) };
    const previousClose = num(q.regularMarketPreviousClose);
    if (previousClose !== undefined) result.previousClose = previousClose;
    if (open !== undefined && high !== undefined && low !== undefined) {
      result.session = {
        time: nyDate(asOf),
        open,
        high: Math.max(high, price),
        low: Math.min(low, price),
        close: price,
        volume: Math.max(0, Math.round(num(q.regularMarketVolume) ?? 0)),
      };
    }
    return result;
  };

  async function chain(symbol: string): Promise<OptionChain> {
    const first = await guarded(symbol, () => client.options(symbol));
    const spot = num(first.quote?.regularMarketPrice);
    if (spot === undefined) throw unknownTicker(symbol);
    const asOf = first.quote.regularMarketTime ? new Date(first.quote.regularMarketTime) : now();
    const horizon = now().getTime() + maxExpiryDays * DAY_MS;
    const wanted = first.expirationDates.map((d) => new Date(d)).filter((d) => d.getTime() <= horizon);
    const pages = [first];
    for (const date of wanted.slice(1)) pages.push(await guarded(symbol, () => client.options(symbol, { date })));
    const marketOpen = isMarketOpen(now());
    const sessionOpen = latestSessionOpen(now());

    const byExpiration = new Map<string, OptionQuote[]>();
    for (const page of pages) {
      for (const set of page.options) {
        const expiration = new Date(set.expirationDate).toISOString().slice(0, 10);
        const list = byExpiration.get(expiration) ?? [];
        for (const [type, contracts] of [
          ["put", set.puts],
          ["call", set.calls],
        ] as const) {
          for (const c of contracts) {
            const last = num(c.lastPrice) ?? 0;
            const ask = num(c.ask) ?? 0;
            const { bid, bidSource } = closedMarketBid(
              { bid: num(c.bid) ?? 0, ask, last, lastTradeAt: c.lastTradeDate ? new Date(c.lastTradeDate) : undefined },
              marketOpen,
              sessionOpen,
            );
            list.push({
              symbol: c.contractSymbol || formatOccSymbol({ ticker: symbol, expiration, type, strike: c.strike }),
              type,
              strike: c.strike,
              bid,
              ask,
              last,
              volume: Math.max(0, Math.round(num(c.volume) ?? 0)),
              openInterest: Math.max(0, Math.round(num(c.openInterest) ?? 0)),
              impliedVolatility: num(c.impliedVolatility) ?? 0,
              bidSource,
            });
          }
        }
        byExpiration.set(expiration, list);
      }
    }
    const expirations: OptionExpiration[] = [...byExpiration.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([expiration, list]) => ({ expiration, options: list }));
    const dividendPercent = num(first.quote.dividendYield);
    return {
      ticker: symbol,
      spot,
      asOf,
      source: "yahoo",
      stale: isStale(asOf, now()),
      expirations,
      rate: await riskFreeRate(),
      dividendYield: dividendPercent === undefined ? 0 : yieldFromPercent(dividendPercent),
    };
  }

  return {
    source: "yahoo",

    quote(ticker) {
      const symbol = ticker.trim().toUpperCase();
      return lastGood(`quote ${symbol}`, async () => toQuote(await rawQuote(symbol)), markLastGood);
    },

    async companyName(ticker) {
      try {
        const q = await rawQuote(ticker);
        return q.longName ?? q.shortName ?? q.displayName ?? undefined;
      } catch (error) {
        if (error instanceof MarketDataError && error.status === 404) return undefined;
        throw error;
      }
    },

    async sector(ticker) {
      const symbol = ticker.trim().toUpperCase();
      const summary = await guarded(symbol, () => client.quoteSummary(symbol, { modules: ["assetProfile"] }));
      return gicsOfYahoo(summary.assetProfile?.sector);
    },

    async dailyHistory(ticker, days) {
      return chartBars(ticker.trim().toUpperCase(), days);
    },

    optionChain(ticker) {
      const symbol = ticker.trim().toUpperCase();
      return lastGood(`chain ${symbol}`, () => chain(symbol), markLastGood);
    },

    async optionHistory(symbol, days) {
      try {
        parseOccSymbol(symbol);
      } catch (error) {
        if (error instanceof InvalidOccSymbolError) throw new MarketDataError(400, error.message);
        throw error;
      }
      const bars = await chartBars(symbol, days);
      return bars.map((b): OptionClose => ({ time: b.time, close: b.close }));
    },

    async nextEarningsDate(ticker) {
      const q = await rawQuote(ticker);
      const today = nyDate(now());
      const candidates = [q.earningsTimestampStart, q.earningsTimestamp, q.earningsTimestampEnd]
        .filter((d): d is Date => d instanceof Date || typeof d === "number" || typeof d === "string")
        .map((d) => nyDate(new Date(d)))
        .filter((day) => day >= today)
        .sort();
      return candidates[0] ?? null;
    },

    riskFreeRate,
  };
}
