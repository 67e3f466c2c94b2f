/**
 * Market data from Tradier's brokerage API (MARKET_DATA=tradier): quotes (/markets/quotes, the
 * symbols of concurrent calls joined into one request), option expirations and chains with greeks
 * and implied volatility (/markets/options/expirations, /markets/options/chains?greeks=true, one
 * request per expiration in the engine's window), daily history (/markets/history), and the market
 * clock and calendar (/markets/clock, /markets/calendar) for open and closed days.
 *
 * Requests go through a token bucket kept under Tradier's documented market-data limit (120 a
 * minute in production, 60 in the sandbox), emptied early by Tradier's own X-Ratelimit headers. A
 * 429 or an outage answers the last good figures, marked with their age (last-good.ts), else a
 * MarketDataError: 404 unknown, 429 rate limited, 503 down or a refused token.
 */
import { InvalidOccSymbolError, parseOccSymbol } from "#provider/options/occ-symbol.ts";
import { isMarketOpen, isoDateOf, nyClock } from "./calendar.ts";
import { closedMarketBid, isStale, latestSessionOpen } from "./freshness.ts";
import { FALLBACK_RISK_FREE_RATE } from "./rates.ts";
import { createLastGood, markLastGood } from "./last-good.ts";
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
import { createTokenBucket } from "./token-bucket.ts";
import { gicsOfMorningstarCode } from "./sectors.ts";

export const TRADIER_PRODUCTION_URL = "https://api.tradier.com/v1";
const TRADIER_SANDBOX_URL = "https://sandbox.tradier.com/v1";
/** Tradier's market-data limit per access token and minute (production; the sandbox allows 60). */
const TRADIER_REQUESTS_PER_MINUTE = 120;
/** Symbols per /markets/quotes request (a GET URL stays well under common length limits). */
const QUOTE_BATCH = 100;

export interface TradierMarketOptions {
  token: string;
  /** TRADIER_BASE_URL: production by default, https://sandbox.tradier.com/v1 for a paper account. */
  baseUrl?: string | undefined;
  fetch?: typeof fetch | undefined;
  timeoutMs?: number | undefined;
  /** Expirations further out than this are not fetched (the engine keeps 7–60 days). */
  maxExpiryDays?: number | undefined;
  requestsPerMinute?: number | undefined;
  /** Longest wait for a free request before answering "rate limited" (or the last good figures). */
  maxQueueMs?: number | undefined;
  /** How long quote() calls wait to be joined into one request. */
  batchWindowMs?: number | undefined;
  now?: (() => Date) | undefined;
  /** RISK_FREE_RATE (continuous, a fraction) for chains; Tradier quotes no rate, so unset takes rates.ts's fallback. */
  riskFreeRate?: number | undefined;
}

/** Tradier's market clock: open, premarket, postmarket or closed, with the next change (New York time). */
export interface TradierClock {
  date: string;
  state: "open" | "closed" | "premarket" | "postmarket";
  description: string;
  /** When Tradier stated it. */
  asOf: Date;
  nextChange: string;
  nextState: string;
}

export interface TradierCalendarDay {
  date: string;
  status: "open" | "closed";
  description: string;
  /** Regular session as HH:MM New York time; absent on closed days. */
  open?: { start: string; end: string } | undefined;
}

export interface TradierMarket extends MarketData {
  clock(): Promise<TradierClock>;
  /** The days of one month (1–12). */
  calendar(year: number, month: number): Promise<TradierCalendarDay[]>;
}

// Tradier's JSON is converted from XML: a list of one is a bare object and an empty list is null or "null".
const list = <T>(value: T | T[] | null | undefined | string): T[] =>
  value == null || typeof value === "string" ? [] : Array.isArray(value) ? value : [value];
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

interface TradierQuote {
  symbol: string;
  description?: string;
  type?: string;
  last?: number | null;
  open?: number | null;
  high?: number | null;
  low?: number | null;
  close?: number | null;
  prevclose?: number | null;
  volume?: number | null;
  bid?: number | null;
  ask?: number | null;
  trade_date?: number | null;
}

interface TradierOption extends TradierQuote {
  option_type: "put" | "call";
  strike: number;
  expiration_date: string;
  open_interest?: number | null;
  greeks?: {
    delta: number;
    gamma: number;
    theta: number;
    vega: number;
    rho: number;
    mid_iv?: number | null;
    smv_vol?: number | null;
  } | null;
}

const DAY_MS = 86_400_000;
const nyDate = (date: Date) => isoDateOf(nyClock(date).dayNumber);

export function createTradierMarket(options: TradierMarketOptions): TradierMarket {
  const baseUrl = (options.baseUrl ?? TRADIER_PRODUCTION_URL).replace(/\/+$/, "");
  const baseFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => new Date());
  const maxExpiryDays = options.maxExpiryDays ?? 70;
  const maxQueueMs = options.maxQueueMs ?? 5_000;
  const batchWindowMs = options.batchWindowMs ?? 5;
  // The sandbox allows half of production's market-data requests.
  const perMinute =
    options.requestsPerMinute ??
    (baseUrl.startsWith(TRADIER_SANDBOX_URL) ? TRADIER_REQUESTS_PER_MINUTE / 2 : TRADIER_REQUESTS_PER_MINUTE);
  const bucket = createTokenBucket(perMinute, 60_000);
  const lastGood = createLastGood(now);

  // Company fundamentals are in Tradier's beta API, beside /v1: https://api.tradier.com/beta/markets/fundamentals/company.
  const betaUrl = baseUrl.replace(/\/v1$/, "/beta");
  /** Sectors by symbol, asked once a process: a company's sector hardly ever changes. */
  const sectors = new Map<string, Promise<string | null>>();

  /** One GET of the API: waits for a token, sends the bearer token, maps failures. */
  async function get<T>(path: string, query: Record<string, string>, subject: string, root = baseUrl): Promise<T> {
    const wait = bucket.take();
    if (wait > maxQueueMs) throw rateLimited(Math.ceil(wait / 1000));
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      return get(path, query, subject, root);
    }
    const url = `${root}${path}?${new URLSearchParams(query)}`;
    let response: Response;
    try {
      response = await baseFetch(url, {
        headers: { Authorization: `Bearer ${options.token}`, Accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw vendorDown();
    }
    // Tradier counts every request; its count wins over ours (another process may share the token).
    const available = Number(response.headers.get("x-ratelimit-available"));
    const expiry = Number(response.headers.get("x-ratelimit-expiry"));
    if (response.headers.has("x-ratelimit-available") && available <= 0 && expiry > 0) bucket.exhaust(expiry);
    if (response.status === 429) {
      const seconds = expiry > 0 ? Math.max(1, Math.ceil((expiry - now().getTime()) / 1000)) : 60;
      if (!(expiry > 0)) bucket.exhaust(now().getTime() + seconds * 1000);
      throw rateLimited(seconds);
    }
    if (response.status === 401) {
      throw vendorDown("Market data refused our access token (check TRADIER_TOKEN and TRADIER_BASE_URL)");
    }
    if (response.status === 400) throw new MarketDataError(400, `Market data refused the request for ${subject}`);
    if (!response.ok) throw vendorDown();
    try {
      return (await response.json()) as T;
    } catch {
      throw vendorDown("Market data came back in a shape we do not recognise; please try again later");
    }
  }

  // Closed days (holidays) by month, from /markets/calendar, for freshness; a month is asked once a day.
  const months = new Map<string, { day: string; closed: Promise<string[]> }>();
  async function closedDays(at: Date): Promise<Set<string>> {
    const today = nyDate(now());
    const { dayNumber } = nyClock(at);
    const keys = new Set([isoDateOf(dayNumber).slice(0, 7), isoDateOf(dayNumber - 10).slice(0, 7)]);
    const closed = new Set<string>();
    for (const key of keys) {
      let held = months.get(key);
      if (!held || held.day !== today) {
        const [year, month] = key.split("-").map(Number) as [number, number];
        held = {
          day: today,
          closed: market
            .calendar(year, month)
            .then((days) => days.filter((d) => d.status === "closed").map((d) => d.date))
            .catch(() => {
              months.delete(key);
              return [];
            }),
        };
        months.set(key, held);
      }
      for (const day of await held.closed) closed.add(day);
    }
    return closed;
  }

  // quote() calls within the batch window share one /markets/quotes request.
  let pending: Map<string, Array<{ resolve(q: TradierQuote | undefined): void; reject(e: unknown): void }>> | null =
    null;
  function batchedQuote(symbol: string): Promise<TradierQuote | undefined> {
    return new Promise((resolve, reject) => {
      if (!pending) {
        pending = new Map();
        setTimeout(() => void flush(), batchWindowMs);
      }
      const waiting = pending.get(symbol) ?? [];
      waiting.push({ resolve, reject });
      pending.set(symbol, waiting);
    });
  }
  async function flush() {
    const batch = pending!;
    pending = null;
    const symbols = [...batch.keys()];
    for (let i = 0; i < symbols.length; i += QUOTE_BATCH) {
      const chunk = symbols.slice(i, i + QUOTE_BATCH);
      try {
        const body = await get<{ quotes?: { quote?: TradierQuote | TradierQuote[] } | null }>(
          "/markets/quotes",
          { symbols: chunk.join(","), greeks: "false" },
          chunk.join(", "),
        );
        const found = new Map(list(body.quotes?.quote).map((q) => [q.symbol.toUpperCase(), q]));
        for (const s of chunk) for (const w of batch.get(s)!) w.resolve(found.get(s));
      } catch (error) {
        for (const s of chunk) for (const w of batch.get(s)!) w.reject(error);
      }
    }
  }

  async function rawQuote(ticker: string): Promise<TradierQuote> {
    const symbol = ticker.trim().toUpperCase();
    const q = await batchedQuote(symbol);
    if (!q || num(q.last) === undefined) throw unknownTicker(symbol);
    return q;
  }

  async function toQuote(q: TradierQuote): Promise<Quote> {
    const price = q.last as number;
    const asOf = num(q.trade_date) ? new Date(q.trade_date as number) : now();
    const result: Quote = {
      ticker: q.symbol,
      price,
      asOf,
      source: "tradier",
      stale: isStale(asOf, now(), await closedDays(now())),
    };
    const previousClose = num(q.prevclose);
    if (previousClose !== undefined) result.previousClose = previousClose;
    const open = num(q.open);
    const high = num(q.high);
    const low = num(q.low);
    if (open !== undefined && high !== undefined && low !== undefined) {
      result.session = {
        time: nyDate(asOf),
        open,
        high: Math.max(high, price),
        low: Math.min(low, price),
        close: price,
        volume: Math.max(0, Math.round(num(q.volume) ?? 0)),
      };
    }
    return result;
  }

  async function history(symbol: string, days: number): Promise<DailyBar[]> {
    const span = Math.ceil((Math.max(1, days) * 7) / 5) + 10;
    const end = nyDate(now());
    const start = nyDate(new Date(now().getTime() - span * DAY_MS));
    const body = await get<{ history?: { day?: unknown } | null }>(
      "/markets/history",
      { symbol, interval: "daily", start, end },
      symbol,
    );
    const rows = list(body.history?.day as Record<string, unknown> | Record<string, unknown>[] | null);
    if (rows.length === 0 && body.history == null) throw unknownTicker(symbol);
    const bars: DailyBar[] = [];
    for (const d of rows) {
      const close = num(d.close);
      if (close === undefined || typeof d.date !== "string") continue;
      bars.push({
        time: d.date,
        open: num(d.open) ?? close,
        high: num(d.high) ?? close,
        low: num(d.low) ?? close,
        close,
        volume: Math.max(0, Math.round(num(d.volume) ?? 0)),
      });
    }
    return bars.slice(-Math.max(1, Math.floor(days)));
  }

  const market: TradierMarket = {
    source: "tradier",

    quote(ticker) {
      const symbol = ticker.trim().toUpperCase();
      return lastGood(`quote ${symbol}`, async () => toQuote(await rawQuote(symbol)), markLastGood);
    },

    async companyName(ticker) {
      try {
        const q = await lastGood(`quote-raw ${ticker.trim().toUpperCase()}`, () => rawQuote(ticker));
        return q.description || undefined;
      } catch (error) {
        if (error instanceof MarketDataError && error.status === 404) return undefined;
        throw error;
      }
    },

    dailyHistory(ticker, days) {
      const symbol = ticker.trim().toUpperCase();
      return lastGood(`history ${symbol} ${days}`, () => history(symbol, days));
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
      const bars = await lastGood(`history ${symbol} ${days}`, () => history(symbol, days));
      return bars.map((b): OptionClose => ({ time: b.time, close: b.close }));
    },

    async riskFreeRate() {
      return options.riskFreeRate ?? FALLBACK_RISK_FREE_RATE;
    },

    /**
     * From Tradier's company fundamentals (beta): the Morningstar sector code of the company's asset
     * classification, as GICS (sectors.ts). Null when Tradier has no fundamentals for it (an ETF).
     */
    sector(ticker) {
      const symbol = ticker.trim().toUpperCase();
      let known = sectors.get(symbol);
      if (!known) {
        known = companySector(symbol);
        sectors.set(symbol, known);
        // A failure is not remembered: the next plan asks again.
        known.catch(() => sectors.delete(symbol));
      }
      return known;
    },

    async nextEarningsDate(ticker) {
      // Tradier's market data has no earnings calendar: unknown, as the port allows.
      await rawQuote(ticker);
      return null;
    },

    async clock() {
      const body = await get<{
        clock: { date: string; description: string; state: TradierClock["state"]; timestamp: number };
      }>("/markets/clock", {}, "the market clock");
      const c = body.clock as typeof body.clock & { next_change: string; next_state: string };
      return {
        date: c.date,
        state: c.state,
        description: c.description,
        asOf: new Date(c.timestamp * 1000),
        nextChange: c.next_change,
        nextState: c.next_state,
      };
    },

    async calendar(year, month) {
      const body = await get<{ calendar?: { days?: { day?: unknown } } }>(
        "/markets/calendar",
        { month: String(month).padStart(2, "0"), year: String(year) },
        "the market calendar",
      );
      return list(body.calendar?.days?.day as TradierCalendarDay | TradierCalendarDay[] | null).map((d) => ({
        date: d.date,
        status: d.status,
        description: d.description,
        ...(d.open ? { open: { start: d.open.start, end: d.open.end } } : {}),
      }));
    },
  };

  async function companySector(symbol: string): Promise<string | null> {
    type Company = { tables?: Record<string, { morningstar_sector_code?: unknown } | null | undefined> | null };
    const body = await get<unknown>("/markets/fundamentals/company", { symbols: symbol }, symbol, betaUrl);
    const items = Array.isArray(body) ? (body as { results?: Company[] | null }[]) : [];
    for (const item of items) {
      for (const result of item.results ?? []) {
        const tables = result.tables ?? {};
        const code =
          tables.asset_classification?.morningstar_sector_code ??
          tables.historical_asset_classification?.morningstar_sector_code;
        const sector = gicsOfMorningstarCode(code);
        if (sector) return sector;
      }
    }
    return null;
  }

  async function chain(symbol: string): Promise<OptionChain> {
    const [quote, expirationsBody] = await Promise.all([
      rawQuote(symbol).then(toQuote),
      get<{ expirations?: { date?: string | string[] } | null }>("/markets/options/expirations", { symbol }, symbol),
    ]);
    const horizon = nyDate(new Date(now().getTime() + maxExpiryDays * DAY_MS));
    const today = nyDate(now());
    const wanted = list(expirationsBody.expirations?.date).filter((d) => d >= today && d <= horizon);
    const [clock, closed] = await Promise.all([market.clock().catch(() => null), closedDays(now())]);
    // Without the clock, the weekday rule decides (bids are then kept as quoted on a holiday).
    const marketOpen = clock ? clock.state === "open" : isMarketOpen(now());
    const sessionOpen = latestSessionOpen(now(), new Set(closed));
    const expirations: OptionExpiration[] = [];
    for (const expiration of wanted.sort()) {
      const body = await get<{ options?: { option?: TradierOption | TradierOption[] } | null }>(
        "/markets/options/chains",
        { symbol, expiration, greeks: "true" },
        symbol,
      );
      const options: OptionQuote[] = list(body.options?.option).map((o) => toOption(o, marketOpen, sessionOpen));
      expirations.push({ expiration, options });
    }
    return {
      ticker: quote.ticker,
      spot: quote.price,
      asOf: quote.asOf,
      source: "tradier",
      stale: quote.stale,
      expirations,
      rate: options.riskFreeRate ?? FALLBACK_RISK_FREE_RATE,
    };
  }

  return market;
}

/** One contract of a Tradier chain in the port's terms (IV as a fraction: ORATS's mid IV, else its smoothed IV). */
export function toOption(o: TradierOption, marketOpen: boolean, sessionOpen: Date): OptionQuote {
  const last = num(o.last) ?? 0;
  const ask = num(o.ask) ?? 0;
  const quoted = num(o.bid) ?? 0;
  const tradeDate = num(o.trade_date);
  const { bid, bidSource } = closedMarketBid(
    { bid: quoted, ask, last, lastTradeAt: tradeDate ? new Date(tradeDate) : undefined },
    marketOpen,
    sessionOpen,
  );
  const g = o.greeks;
  const iv = num(g?.mid_iv) && (g!.mid_iv as number) > 0 ? (g!.mid_iv as number) : (num(g?.smv_vol) ?? 0);
  const option: OptionQuote = {
    symbol: o.symbol,
    type: o.option_type,
    strike: o.strike,
    bid,
    ask,
    last,
    volume: Math.max(0, Math.round(num(o.volume) ?? 0)),
    openInterest: Math.max(0, Math.round(num(o.open_interest) ?? 0)),
    impliedVolatility: iv,
    bidSource,
  };
  if (g && [g.delta, g.gamma, g.theta, g.vega, g.rho].every((x) => num(x) !== undefined)) {
    option.greeks = { delta: g.delta, gamma: g.gamma, theta: g.theta, vega: g.vega, rho: g.rho };
  }
  return option;
}
