/**
 * A deterministic simulated market: the default, offline market-data source. Every number is a
 * pure function of the seed, the ticker and the time, so tests and demos repeat exactly.
 */
import { simulatedSector } from "./sectors.ts";
import { formatOccSymbol, InvalidOccSymbolError, parseOccSymbol } from "#provider/options/occ-symbol.ts";
import type { OptionType } from "#provider/options/black-scholes.ts";
import {
  CLOSE_MINUTE,
  closeMinuteOf,
  dayNumberOf,
  dayNumberOfTradingIndex,
  isMarketOpen,
  isTradingDay,
  isoDateOf,
  nyClock,
  nyInstant,
  sessionAt,
  tradingIndexOf,
  yearsToExpiry,
} from "./calendar.ts";
import { earningsSchedule, EARNINGS_PERIOD_DAYS } from "./earnings.ts";
import { listedExpirations, markOf, modelPrice, quoteAround, strikeGrid, surfaceVolatility } from "./option-model.ts";
import {
  MarketDataError,
  unknownTicker,
  type DailyBar,
  type MarketData,
  type OptionChain,
  type OptionClose,
  type OptionExpiration,
  type OptionQuote,
  type Quote,
} from "./port.ts";
import { EARNINGS_MOVE_FACTOR, EPOCH_DAY, PricePath } from "./price-path.ts";
import { FALLBACK_RISK_FREE_RATE } from "./rates.ts";
import { replaySession } from "./replay.ts";
import { hashString, randomFor } from "./random.ts";

export { isMarketOpen } from "./calendar.ts";

export interface SimulatedTicker {
  ticker: string;
  name: string;
  /** Reference price the path hovers around. */
  price: number;
  /** Annualised volatility, e.g. 0.26. */
  volatility: number;
  /** Continuous dividend yield; derived from the ticker when omitted (none for volatile names). */
  dividendYield?: number;
}

export interface SimulatedMarketOptions {
  seed: number | string;
  tickers: readonly SimulatedTicker[];
  now?: () => Date;
  /** RISK_FREE_RATE (continuous, a fraction) the market prices with; rates.ts's fallback when omitted. */
  riskFreeRate?: number | undefined;
  /**
   * The demo market (docs/decisions/0037): while the exchange is closed, quotes and chains replay the
   * latest session at real speed instead of standing at its close. Off unless true (tests and the
   * back-test read fixed instants); the provider turns it on for MARKET_DATA=simulated.
   */
  replayWhenClosed?: boolean | undefined;
}

export interface SimulatedMarket extends MarketData {
  /** The tickers this market knows, as given. */
  readonly tickers: readonly string[];
  /** The same market read at the instants `now` gives (a back-test replays past sessions with it). */
  withClock(now: () => Date): SimulatedMarket;
}

/** Whether a market is the simulated one (its figures must say they are simulated). */
export function isSimulatedMarket(market: MarketData): market is SimulatedMarket {
  return typeof (market as Partial<SimulatedMarket>).withClock === "function";
}

const round2 = (x: number) => Math.round(x * 100) / 100;

interface OptionSlot {
  symbol: string;
  type: OptionType;
  strike: number;
  /** Per-day noise for volume and open interest, fixed for the session. */
  volumeNoise: number;
  interestNoise: number;
}

interface ChainSkeleton {
  day: number;
  expirations: { expiration: string; monthly: boolean; slots: OptionSlot[] }[];
}

interface TickerState {
  /** Upper-case, as quoted back. */
  ticker: string;
  info: SimulatedTicker;
  key: string;
  dividendYield: number;
  path: PricePath;
  earnings: ReturnType<typeof earningsSchedule>;
  /** Ex-dividend days: quarterly, like the earnings, at their own phase. */
  exDividend: ReturnType<typeof earningsSchedule>;
  /** Contracts a day at the money in the nearest weekly. */
  liquidity: number;
  skeleton?: ChainSkeleton;
  /** Past days' ATM IVs never change: the last backfill, kept for the session day it was made on. */
  ivBackfill?: { day: number; days: number; values: { day: string; iv: number }[] };
}

/** Market state at one instant, enough to price any option of the ticker. */
interface PricingPoint {
  spot: number;
  asOf: Date;
  deviation: number;
  /** Trading index of the next earnings session still to come. */
  nextEarnings: number;
}

/** Trading indexes of the last `count` sessions up to `last`, oldest first, exchange holidays skipped. */
function sessionsBack(last: number, count: number): number[] {
  const days: number[] = [];
  for (let day = last; days.length < Math.floor(count) && day > EPOCH_DAY; day--) {
    if (isTradingDay(dayNumberOfTradingIndex(day))) days.push(day);
  }
  return days.reverse();
}

export function createSimulatedMarket(options: SimulatedMarketOptions): SimulatedMarket {
  const now = options.now ?? (() => new Date());
  const rate = options.riskFreeRate ?? FALLBACK_RISK_FREE_RATE;
  const states = new Map<string, TickerState>();
  for (const info of options.tickers) {
    const ticker = info.ticker.trim().toUpperCase();
    const key = `${options.seed}\u0000${ticker}`;
    const unit = (salt: string) => hashString(`${key}\u0000${salt}`) / 2 ** 32;
    const earnings = earningsSchedule(Math.floor(unit("earnings") * EARNINGS_PERIOD_DAYS));
    states.set(ticker, {
      ticker,
      info,
      key,
      dividendYield: info.dividendYield ?? (info.volatility > 0.4 ? 0 : round2(unit("dividend") * 3) / 100),
      path: new PricePath({ seed: options.seed, ticker, price: info.price, volatility: info.volatility, earnings }),
      earnings,
      exDividend: earningsSchedule(Math.floor(unit("ex-dividend") * EARNINGS_PERIOD_DAYS)),
      liquidity: 300 + unit("liquidity") * 2500,
    });
  }

  const stateOf = (ticker: string): TickerState => {
    const state = states.get(String(ticker).trim().toUpperCase());
    if (!state) throw unknownTicker(ticker);
    return state;
  };

  const pointAt = (state: TickerState, day: number, fraction: number, asOf: Date): PricingPoint => {
    const log = state.path.logPriceAt(day, fraction);
    const nextEarningsDay = state.earnings.nextOnOrAfter(dayNumberOfTradingIndex(day) + 1);
    return {
      spot: round2(Math.exp(log)),
      asOf,
      deviation: log - state.path.referenceLog,
      nextEarnings: tradingIndexOf(nextEarningsDay),
    };
  };

  const value = (
    state: TickerState,
    point: PricingPoint,
    type: OptionType,
    strike: number,
    expiration: string,
    years = yearsToExpiry(point.asOf, expiration),
  ) => {
    const q = state.dividendYield;
    const forward = point.spot * Math.exp((rate - q) * years);
    const earningsAhead = point.nextEarnings <= tradingIndexOf(dayNumberOf(expiration));
    const surface = surfaceVolatility({
      volatility: state.info.volatility,
      deviation: point.deviation,
      years,
      strike,
      forward,
      earningsMove: earningsAhead ? EARNINGS_MOVE_FACTOR * state.path.dailyVol : 0,
    });
    // Listed equity options are American: never worth less than exercising now, which
    // the European formula undercuts for deep in-the-money puts when the rate exceeds the yield.
    const intrinsic = round2(Math.max(0, type === "put" ? strike - point.spot : point.spot - strike));
    const model = Math.max(intrinsic, modelPrice(type, point.spot, strike, years, q, surface.impliedVolatility, rate));
    return { years, model, intrinsic, ...surface };
  };

  /** Strikes, expirations and symbols are fixed for a session, around the previous close. */
  const skeletonOf = (state: TickerState, day: number): ChainSkeleton => {
    if (state.skeleton?.day === day) return state.skeleton;
    const strikes = strikeGrid(Math.exp(state.path.logClose(day - 1)));
    const { ticker } = state;
    const expirations = listedExpirations(dayNumberOfTradingIndex(day)).map(({ expiration, monthly }) => {
      const slots: OptionSlot[] = [];
      for (const type of ["put", "call"] as const) {
        for (const strike of strikes) {
          const symbol = formatOccSymbol({ ticker, expiration, type, strike });
          const random = randomFor(state.key, symbol, day);
          slots.push({ symbol, type, strike, volumeNoise: random.normal(), interestNoise: random.normal() });
        }
      }
      return { expiration, monthly, slots };
    });
    state.skeleton = { day, expirations };
    return state.skeleton;
  };

  /** The session live figures are read at: the real one, or while closed the demo's replay of the latest. */
  const liveSession = () => {
    const at = now();
    if (options.replayWhenClosed && !isMarketOpen(at)) return { session: replaySession(at), replay: true };
    return { session: sessionAt(at), replay: false };
  };

  const market: SimulatedMarket = {
    tickers: [...states.keys()],

    source: "simulated",
    replaysWhenClosed: options.replayWhenClosed === true,
    now,

    // A back-test reads past sessions at their closes: it never replays.
    withClock: (clock) => createSimulatedMarket({ ...options, now: clock, replayWhenClosed: false }),

    async quote(ticker) {
      const state = stateOf(ticker);
      const { session, replay } = liveSession();
      const price = round2(Math.exp(state.path.logPriceAt(session.day, session.fraction)));
      const previousClose = round2(Math.exp(state.path.logClose(session.day - 1)));
      const bar = state.path.bar(session.day, session.fraction);
      return {
        ticker: state.ticker,
        price,
        asOf: session.asOf,
        // The simulated market is made now: never stale.
        source: "simulated",
        stale: false,
        ...(replay ? { replay } : {}),
        previousClose,
        session: bar,
      } satisfies Quote;
    },

    async companyName(ticker) {
      return states.get(String(ticker).trim().toUpperCase())?.info.name;
    },

    async sector(ticker) {
      return simulatedSector(ticker);
    },

    async dailyHistory(ticker, days) {
      const state = stateOf(ticker);
      const session = sessionAt(now());
      const bars: DailyBar[] = [];
      // The last `days` sessions; exchange holidays have no bar (the session under way is never one).
      for (const day of sessionsBack(session.day, days)) {
        bars.push(state.path.bar(day, day === session.day ? session.fraction : 1));
      }
      return bars;
    },

    async optionChain(ticker) {
      const state = stateOf(ticker);
      const { session, replay } = liveSession();
      const point = pointAt(state, session.day, session.fraction, session.asOf);
      const skeleton = skeletonOf(state, session.day);
      const expirations: OptionExpiration[] = [];
      for (const listed of skeleton.expirations) {
        const years = yearsToExpiry(point.asOf, listed.expiration);
        if (years <= 0) continue;
        const options = listed.slots.map((slot): OptionQuote => {
          const v = value(state, point, slot.type, slot.strike, listed.expiration, years);
          const q = quoteAround(v.model, v.moneyness, v.intrinsic);
          // Liquidity gathers near the money, in the nearest and the monthly expiries, and in OTM puts.
          const nearness = (1 / (1 + 6 * v.years)) * (listed.monthly ? 1.6 : 1);
          const side = slot.type === "put" && slot.strike < point.spot ? 1.2 : 1;
          const dailyVolume =
            state.liquidity * nearness * side * Math.exp(-(v.moneyness ** 2) / 2.88 + 0.7 * slot.volumeNoise - 0.245);
          const openInterest =
            state.liquidity *
            6 *
            Math.sqrt(nearness) *
            side *
            Math.exp(-(v.moneyness ** 2) / 8 + 0.5 * slot.interestNoise);
          return {
            symbol: slot.symbol,
            type: slot.type,
            strike: slot.strike,
            bid: q.bid,
            ask: q.ask,
            last: q.last,
            volume: Math.floor(dailyVolume * session.fraction),
            openInterest: Math.floor(openInterest),
            impliedVolatility: v.impliedVolatility,
          };
        });
        expirations.push({ expiration: listed.expiration, options });
      }
      return {
        ticker: state.ticker,
        spot: point.spot,
        asOf: point.asOf,
        source: "simulated",
        stale: false,
        ...(replay ? { replay } : {}),
        expirations,
        rate,
        dividendYield: state.dividendYield,
      } satisfies OptionChain;
    },

    async optionHistory(symbol, days) {
      let parts;
      try {
        parts = parseOccSymbol(symbol);
      } catch (error) {
        if (error instanceof InvalidOccSymbolError) throw new MarketDataError(400, error.message);
        throw error;
      }
      const state = stateOf(parts.ticker);
      const session = sessionAt(now());
      const expiryDay = dayNumberOf(parts.expiration);
      const closes: OptionClose[] = [];
      for (const day of sessionsBack(session.day, days)) {
        const dayNumber = dayNumberOfTradingIndex(day);
        if (dayNumber > expiryDay) break;
        const partial = day === session.day && session.fraction < 1;
        const asOf = partial ? session.asOf : nyInstant(dayNumber, CLOSE_MINUTE);
        const point = pointAt(state, day, partial ? session.fraction : 1, asOf);
        const v = value(state, point, parts.type, parts.strike, parts.expiration);
        // On expiry day's close the option is worth exactly its intrinsic value.
        closes.push({ time: isoDateOf(dayNumber), close: v.years > 0 ? markOf(v.model) : round2(v.model) });
      }
      return closes;
    },

    async atmIvHistory(ticker, days) {
      const state = stateOf(ticker);
      const session = sessionAt(now());
      const cached = state.ivBackfill;
      if (cached && cached.day === session.day && cached.days === days) return cached.values.slice();
      const out: { day: string; iv: number }[] = [];
      // The last `days` days the exchange was open before today's session, oldest first.
      const open: number[] = [];
      for (let day = session.day - 1; open.length < days && day > EPOCH_DAY; day--) {
        if (isTradingDay(dayNumberOfTradingIndex(day))) open.unshift(day);
      }
      for (const day of open) {
        const dayNumber = dayNumberOfTradingIndex(day);
        const point = pointAt(state, day, 1, nyInstant(dayNumber, closeMinuteOf(dayNumber)));
        // The model's volatility at the money, 30 calendar days out, at that day's close.
        const v = value(state, point, "put", point.spot, isoDateOf(dayNumber + 30));
        out.push({ day: isoDateOf(dayNumber), iv: v.impliedVolatility });
      }
      state.ivBackfill = { day: session.day, days, values: out };
      return out.slice();
    },

    async riskFreeRate() {
      return rate;
    },

    async nextEarningsDate(ticker) {
      const state = stateOf(ticker);
      return isoDateOf(state.earnings.nextOnOrAfter(nyClock(now()).dayNumber));
    },

    // A quarterly dividend, the continuous yield's quarter of the reference price, on a
    // ticker-specific day moved off weekends like the earnings (ADR 0034).
    async nextExDividend(ticker) {
      const state = stateOf(ticker);
      if (state.dividendYield <= 0) return null;
      const day = state.exDividend.nextOnOrAfter(nyClock(now()).dayNumber);
      return { date: isoDateOf(day), amount: round2((state.info.price * state.dividendYield) / 4) };
    },
  };
  return market;
}
