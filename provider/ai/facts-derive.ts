/**
 * The facts an explanation may use, derived without I/O from what ai/facts.ts gathered (the store,
 * the market-data port). Every number an explainer writes is one of these (or a plain rendering of
 * one: a fraction as a percentage, a negative as its size); all arithmetic happens here, so the
 * built-in analyst only formats and an external model gets the same figures. A piece that is
 * unknown or could not be read is null and named in `missing`.
 */
import type { SummarizeBody } from "#contract/calls.ts";
import type { z } from "zod";
import type { DailyBar, OptionChain, Quote } from "#provider/market/port.ts";
import { dayNumberOf, nyClock } from "#provider/market/calendar.ts";
import { bsGreeks } from "#provider/options/black-scholes.ts";
import { probabilityAbove, probabilityBelow } from "#provider/options/probability.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { DEFAULT_FILTERS, selectFor, type TraderFilterValues } from "#provider/recommend/selection.ts";
import { parseOccSymbol } from "#provider/options/occ-symbol.ts";
import { analyzeChain, recentHistoricalVolatility, type Candidate } from "#provider/recommend/engine.ts";
import {
  LEVEL_COLUMNS,
  levelFlags,
  NO_LEVELS,
  type BuyLevelName,
  type ReferenceLevels,
} from "#provider/recommend/level-flags.ts";
import { shownToReader, type LevelsSource as RankingSource } from "#provider/recommend/reference-levels.ts";

export type { BuyLevelName } from "#provider/recommend/level-flags.ts";

/** Whose values an explanation shows: the caller's watchlist row, else the UIP list's, else none. */
export type LevelsSource = "watchlist" | "uip" | "none";

/** The intrinsic values and buy levels an explanation compares the price with; 0 means not set. */
export type Levels = ReferenceLevels;

/** One set level against the price: `gap` is price / level − 1 (negative: the price is below it). */
export interface LevelGap {
  level: "average_iv" | "base_iv" | "conservative_iv" | `buy_level_${BuyLevelName}`;
  value: number;
  gap: number;
}

export interface StockFacts {
  /** Shares per option contract. */
  contractSize: number;
  ticker: string;
  name: string;
  /** When the facts were gathered, by the market's clock (ISO 8601). */
  asOf: string;
  /** The live quote, else the price last stored for the stock; null when neither is known. */
  price: { value: number; asOf: string; source: "market" | "stored" } | null;
  /** Whose values: the caller's watchlist row, else the UIP list's, else none. */
  levelsSource: LevelsSource;
  levels: Levels | null;
  /** The set levels (value > 0) against the price; empty without levels or price. */
  gaps: LevelGap[];
  /** The UIP list's category of the stock, whoever's values are used. */
  category: string | null;
  trend: {
    /** Trading days covered (closes − 1 returns). */
    days: number;
    from: string;
    to: string;
    firstClose: number;
    lastClose: number;
    /** lastClose / firstClose − 1. */
    change: number;
    /** Over the last `recentDays` days, when the history holds that many. */
    recentDays: number | null;
    recentChange: number | null;
    high: number;
    low: number;
    /** lastClose / high − 1 (≤ 0). */
    fromHigh: number;
  } | null;
  volatility: {
    /** Annualised close-to-close volatility over `returns` daily returns; null under 2 returns. */
    historical: number | null;
    returns: number;
    /** About one month at-the-money implied volatility from the option chain; null without one. */
    atmImplied: number | null;
    /** 0–1 within the stored daily at-the-money IVs; null before enough are stored. */
    ivRank: number | null;
    /** Share of those days below today's IV (0–1); null before enough are stored. */
    ivPercentile: number | null;
    /** Daily ATM IVs behind the rank. */
    ivHistoryDays: number;
    /** "run": the figures of the stock's recommendations the reader sees; "live": from the chain now. */
    ivSource: "run" | "live" | null;
  };
  /** The next earnings report; null when none is known or the calendar could not be read (see missing). */
  earnings: { date: string; daysAway: number } | null;
  /**
   * The reader's own first pick, as /insights shows it to them (their levels, their filters, ranked
   * for them): from the stock's recommendations when it has some, else from the chain now. Null when
   * none passes (see putSearch) or there is no chain.
   */
  bestPut: BestPut | null;
  /** Where the pick came from: "run" the stock's recommendations, "live" the chain now; null when none. */
  bestPutSource: "run" | "live" | null;
  /** The reader's filters the pick passed (|delta|, days, commission), so the text can say so. */
  filters: { deltaMin: number; deltaMax: number; dteMin: number; dteMax: number; commission: number } | null;
  putSearch: { minDays: number; maxDays: number; putsInChain: number; eligible: number } | null;
  /** What could not be known, in words: "a live quote", "price history", … */
  missing: string[];
}

export interface BestPut {
  symbol: string;
  expiration: string;
  daysToExpiry: number;
  strike: number;
  bid: number;
  ask: number;
  premium: number;
  /** Premium × 100 shares: what one contract pays. */
  premiumPerContract: number;
  collateral: number;
  breakeven: number;
  cushion: number;
  /** Strike above the price: the part of the premium that is not income. */
  intrinsicValue: number;
  timeValue: number;
  /** Dollars per contract taken off the net figures (the reader's). */
  commission: number;
  /** Time value at the bid less commission, over the collateral: the card's "Monthly, net" and "Annualised, net". */
  netMonthly: number;
  netAnnualized: number;
  probabilityOfProfit: number;
  delta: number;
  impliedVolatility: number;
  /** The lowest buy level the strike is at or below, and its value. */
  buyLevel: { name: BuyLevelName; value: number } | null;
  belowConservativeIv: boolean;
  earningsBeforeExpiry: boolean;
}

/** Shares per option contract. */
const CONTRACT_SIZE = 100;
/** Trading days of history behind the trend (about three months). */
export const TREND_DAYS = 60;
/** The shorter trend window, in trading days (about a month). */
const RECENT_DAYS = 20;

/**
 * The reference levels as ai/facts.ts found them: chosen by the engine's rule
 * (recommend/reference-levels.ts), so the best put is the one generation would rank first.
 */
export interface ChosenLevels {
  levels: ReferenceLevels;
  source: RankingSource;
}

/** What an explanation may show of the chosen levels: the caller's or the UIP list's, never other traders' (ADR 0007). */
function shownLevels(chosen: ChosenLevels | null): { levels: Levels | null; levelsSource: LevelsSource } {
  if (!chosen || !shownToReader(chosen.source)) return { levels: null, levelsSource: "none" };
  return { levels: chosen.levels, levelsSource: chosen.source === "caller" ? "watchlist" : "uip" };
}

function gapsOf(levels: Levels | null, price: number | undefined): LevelGap[] {
  if (!levels || !(price && price > 0)) return [];
  return LEVEL_COLUMNS.filter((level) => levels[level] > 0).map((level) => ({
    level,
    value: levels[level],
    gap: price / levels[level] - 1,
  }));
}

/** The lowest buy level the strike is at or below, with its value (the engine's levelFlags). */
function buyLevelOf(strike: number, levels: Levels | null): BestPut["buyLevel"] {
  const name = levels ? levelFlags(strike, levels).buyLevel : null;
  return name && levels ? { name, value: levels[`buy_level_${name}`] } : null;
}

/** A stored put as the reader's list shows it (its figures are that reader's: their levels, their commission). */
function bestPutOfRow(r: TradeRecommendation, shown: Levels | null): BestPut {
  return {
    symbol: r.option_identifier,
    expiration: r.expiration_date,
    daysToExpiry: r.days_to_expiry,
    strike: r.strike_price,
    bid: r.bid,
    ask: r.ask,
    premium: r.current_option_price,
    premiumPerContract: r.current_option_price * CONTRACT_SIZE,
    collateral: r.collateral,
    breakeven: r.breakeven,
    cushion: r.cushion,
    intrinsicValue: r.intrinsic_value,
    timeValue: r.time_value,
    commission: r.commission,
    netMonthly: r.net_monthly_return,
    netAnnualized: r.net_annualized_return,
    probabilityOfProfit: r.probability_of_profit,
    delta: r.delta,
    impliedVolatility: r.implied_volatility,
    buyLevel: r.buy_level && shown ? { name: r.buy_level, value: shown[`buy_level_${r.buy_level}`] } : null,
    belowConservativeIv: r.below_conservative_iv,
    earningsBeforeExpiry: r.earnings_before_expiry,
  };
}

/**
 * The reader's first pick from the chain now, chosen by the same selection /insights runs on a
 * stored pool (recommend/selection.ts), so the AI never suggests a put their filters exclude.
 */
function livePick(
  candidates: readonly Candidate[],
  spot: number,
  rate: number,
  shown: Levels | null,
  filters: TraderFilterValues,
): BestPut | null {
  const pool = candidates.map((c) => ({
    candidate: c,
    strike_price: c.strike,
    expiration_date: c.expiration,
    current_stock_price: spot,
    bid: c.bid,
    ask: c.ask,
    delta: c.delta,
    days_to_expiry: c.daysToExpiry,
    open_interest: c.openInterest,
    earnings_before_expiry: c.earningsBeforeExpiry,
    probability_of_profit: c.probabilityOfProfit,
    rate,
  }));
  const { selected } = selectFor(pool, shown, filters);
  const first = selected.find((s) => s.rank === 1);
  if (!first) return null;
  const c = first.option.candidate;
  const f = first.figures;
  return {
    symbol: c.symbol,
    expiration: c.expiration,
    daysToExpiry: c.daysToExpiry,
    strike: c.strike,
    bid: c.bid,
    ask: c.ask,
    premium: c.premium,
    premiumPerContract: c.premium * CONTRACT_SIZE,
    collateral: c.collateral,
    breakeven: c.breakeven,
    cushion: c.cushion,
    intrinsicValue: f.intrinsic_value,
    timeValue: f.time_value,
    commission: f.commission,
    netMonthly: f.net_monthly_return,
    netAnnualized: f.net_annualized_return,
    probabilityOfProfit: c.probabilityOfProfit,
    delta: c.delta,
    impliedVolatility: c.impliedVolatility,
    buyLevel: buyLevelOf(c.strike, shown),
    belowConservativeIv: levelFlags(c.strike, shown ?? NO_LEVELS).belowConservativeIv,
    earningsBeforeExpiry: c.earningsBeforeExpiry,
  };
}

/** What ai/facts.ts gathered for the stock analysis; a market piece that failed is undefined and named in `missing`. */
export interface GatheredStock {
  stock: { ticker: string; name: string; current_price: number; updated_at: Date | string | null };
  chosen: ChosenLevels;
  /** The UIP list's category of the stock, whoever's values are used. */
  category: string | null;
  ivHistory: { day: string; atm_iv: number }[];
  quote: Quote | undefined;
  history: DailyBar[] | undefined;
  chain: OptionChain | undefined;
  earningsDate: string | null | undefined;
  missing: string[];
  /** The clock, when neither the quote nor the chain says when. */
  now: Date;
  /**
   * What /insights shows this reader of the stock: their filters, and when the stock has
   * recommendations, that run's IV figures and the reader's list of its puts (ADR 0022). Without it
   * (a stock never generated) the pick and the IV rank come from the chain now, by the same rules.
   */
  screen?: {
    filters: TraderFilterValues;
    run: { ivRank: number | null; ivPercentile: number | null; ivHistoryDays: number } | null;
    picks: TradeRecommendation[];
  };
}

/** Everything the stock analysis may say, from what was gathered. */
export function deriveStockFacts(gathered: GatheredStock): StockFacts {
  const { stock, chosen, category, quote, history, chain, earningsDate } = gathered;
  const missing = [...gathered.missing];
  const { levels, levelsSource } = shownLevels(chosen);
  let price: StockFacts["price"] = null;
  if (quote && quote.price > 0) price = { value: quote.price, asOf: quote.asOf.toISOString(), source: "market" };
  else if (stock.current_price > 0) {
    price = {
      value: Number(stock.current_price),
      asOf: stock.updated_at ? new Date(stock.updated_at).toISOString() : "",
      source: "stored",
    };
  }
  if (!price) missing.push("a price");
  const asOf = quote?.asOf ?? chain?.asOf ?? gathered.now;

  const bars = (history ?? []).filter((b) => b.close > 0);
  let trend: StockFacts["trend"] = null;
  if (bars.length >= 2) {
    const first = bars[0]!;
    const last = bars.at(-1)!;
    const closes = bars.map((b) => b.close);
    const high = Math.max(...closes);
    const recent = bars.length > RECENT_DAYS ? bars[bars.length - 1 - RECENT_DAYS]! : null;
    trend = {
      days: bars.length - 1,
      from: first.time,
      to: last.time,
      firstClose: first.close,
      lastClose: last.close,
      change: last.close / first.close - 1,
      recentDays: recent ? RECENT_DAYS : null,
      recentChange: recent ? last.close / recent.close - 1 : null,
      high,
      low: Math.min(...closes),
      fromHigh: last.close / high - 1,
    };
  } else if (history) {
    missing.push("price history");
  }
  const hv = recentHistoricalVolatility(bars.map((b) => b.close));

  let bestPut: BestPut | null = null;
  let bestPutSource: StockFacts["bestPutSource"] = null;
  let putSearch: StockFacts["putSearch"] = null;
  let atmImplied: number | null = null;
  let ivRank: number | null = null;
  let ivPercentile: number | null = null;
  let ivHistoryDays = 0;
  let ivSource: StockFacts["volatility"]["ivSource"] = null;
  const filters = gathered.screen?.filters ?? DEFAULT_FILTERS;
  if (chain) {
    const today = bars.at(-1)?.time;
    const analysis = analyzeChain({
      chain,
      closes: bars.map((b) => b.close),
      // Ranked as generation ranks (the engine's rule); shown only as far as the caller may see.
      levels: chosen.levels,
      earningsDate: earningsDate ?? null,
      // Today's stored IV is today's own figure, not history (as generation does it).
      ivHistory: today ? gathered.ivHistory.filter((h) => h.day < today).map((h) => h.atm_iv) : [],
    });
    atmImplied = analysis.atmImpliedVolatility;
    ivRank = analysis.ivRank;
    ivPercentile = analysis.ivPercentile;
    ivHistoryDays = analysis.ivHistoryDays;
    ivSource = "live";
    putSearch = {
      minDays: Math.max(analysis.settings.minDays, filters.dte_min),
      maxDays: Math.min(analysis.settings.maxDays, filters.dte_max),
      putsInChain: analysis.putsInChain,
      eligible: analysis.eligible,
    };
    bestPut = livePick(analysis.candidates, analysis.spot, analysis.rate, levels, filters);
    if (bestPut) bestPutSource = "live";
  }
  const run = gathered.screen?.run;
  if (run) {
    // The stock has recommendations: the same IV figures and the same first pick the reader's list shows.
    ivRank = run.ivRank;
    ivPercentile = run.ivPercentile;
    ivHistoryDays = run.ivHistoryDays;
    ivSource = "run";
    const first = gathered.screen!.picks.find((p) => p.rank === 1 && !p.nearest_above_conservative);
    bestPut = first ? bestPutOfRow(first, levels) : null;
    bestPutSource = first ? "run" : null;
  }

  const earnings =
    earningsDate && typeof earningsDate === "string"
      ? { date: earningsDate, daysAway: dayNumberOf(earningsDate) - nyClock(asOf).dayNumber }
      : null;

  return {
    contractSize: CONTRACT_SIZE,
    ticker: stock.ticker,
    name: stock.name,
    asOf: asOf.toISOString(),
    price,
    levelsSource,
    levels,
    gaps: gapsOf(levels, price?.value),
    category,
    trend,
    volatility: {
      historical: hv.returns >= 2 ? hv.value : null,
      returns: hv.returns,
      atmImplied,
      ivRank,
      ivPercentile,
      ivHistoryDays,
      ivSource,
    },
    earnings,
    bestPut,
    bestPutSource,
    filters: {
      deltaMin: filters.delta_min,
      deltaMax: filters.delta_max,
      dteMin: filters.dte_min,
      dteMax: filters.dte_max,
      commission: filters.commission,
    },
    putSearch,
    missing,
  };
}

export type SummarizeInput = z.output<typeof SummarizeBody>;

export interface RecommendationFacts {
  contractSize: number;
  symbol: string;
  /** From the OCC symbol; null when the identifier is not one. */
  ticker: string | null;
  /** Whether the provider tracks the ticker (its stocks table has it). */
  tracked: boolean;
  /** The stock's name when the provider tracks the ticker. */
  name: string | null;
  type: "put" | "call";
  expiration: string;
  /** Calendar days to expiry: given, or counted from today in New York. */
  daysToExpiry: number;
  strike: number;
  stockPrice: number;
  /** The option price the seller collects per share. */
  premium: number;
  premiumPerContract: number;
  bid: number | null;
  ask: number | null;
  /** Cash set aside for one contract: strike × 100. */
  collateral: number;
  breakeven: number;
  /** (stock price − breakeven) / stock price: how far the stock can fall before a loss. */
  cushion: number;
  /** strike / stock price − 1: negative out of the money for a put. */
  strikeDistance: number;
  inTheMoney: boolean;
  /** Intrinsic value per share when in the money (strike − stock price), else 0. */
  intrinsic: number;
  monthlyRoi: number | null;
  annualizedRoi: number | null;
  /** (bid + ask) / 2 when both are known. */
  mid: number | null;
  /** premium − intrinsic value: what the seller earns for the risk (ADR 0022). */
  timeValue: number;
  /** Dollars per contract taken off the net figures (the reader's, else the default). */
  commission: number;
  /** Time value less commission over the collateral, a month and a year; null once expired. */
  netMonthly: number | null;
  netAnnualized: number | null;
  /** The whole premium less commission over the collateral: what expiring worthless returns; null once expired. */
  worthlessNetMonthly: number | null;
  worthlessNetAnnualized: number | null;
  /** T-bills on the collateral for the same days, and the net return above that. */
  tbillReturn: number | null;
  excessReturn: number | null;
  /** Risk-neutral chance of ending below the strike, N(−d2): given, or from the model at the IV. */
  probabilityOfAssignment: number | null;
  /** IV rank and percentile of the stock's ATM IV (0–1), and the days of it stored. */
  ivRank: number | null;
  ivPercentile: number | null;
  ivHistoryDays: number | null;
  probabilityOfProfit: number | null;
  /** Where the probability came from: the recommendation, or the lognormal model at its IV. */
  probabilitySource: "given" | "model" | null;
  impliedVolatility: number | null;
  historicalVolatility: number | null;
  greeks: {
    delta: number;
    /** Per share per calendar day (negative: the option loses value, which the seller keeps). */
    theta: number;
    thetaPerContract: number;
    /** Per share per volatility point. */
    vega: number;
    vegaPerContract: number;
    source: "given" | "model";
  } | null;
  weeklyLow: number | null;
  weeklyHigh: number | null;
  /** Where the premium sits in the weekly range, by thirds (the card icon rule of docs/product.md#states-option-card). */
  weeklyPosition: "top" | "middle" | "bottom" | null;
  /** The most one contract can lose: the breakeven × 100, if the stock went to zero. */
  maxLossPerContract: number;
  volume: number | null;
  openInterest: number | null;
  earnings: { date: string; beforeExpiry: boolean } | null;
  /** The caller's values for the ticker (watchlist, else UIP), as for the stock analysis. */
  levelsSource: LevelsSource;
  levels: Levels | null;
  /** The lowest buy level the strike is at or below. */
  buyLevel: { name: BuyLevelName; value: number } | null;
  /** strike / conservative intrinsic value − 1, when that value is set. */
  strikeVsConservative: number | null;
  missing: string[];
}

const finite = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/** The underlying ticker and the option's type from its OCC symbol; ticker null when it is not one. */
export function underlyingOf(body: SummarizeInput): { ticker: string | null; type: "put" | "call" } {
  try {
    const parts = parseOccSymbol(body.option_identifier);
    return { ticker: parts.ticker, type: body.put_or_call ?? parts.type };
  } catch {
    return { ticker: null, type: body.put_or_call ?? "put" };
  }
}

/** What ai/facts.ts gathered for the summary: the tracked stock and its levels, and the rate to price with. */
export interface GatheredRecommendation {
  /** Null when the ticker is unknown or the provider does not track it. */
  reference: { name: string; chosen: ChosenLevels } | null;
  rate: number;
  now: Date;
}

/** Everything the recommendation summary may say, from the posted recommendation and what was gathered. */
export function deriveRecommendationFacts(body: SummarizeInput, gathered: GatheredRecommendation): RecommendationFacts {
  const { reference, rate, now } = gathered;
  const missing: string[] = [];
  const { ticker, type } = underlyingOf(body);
  if (!ticker) missing.push("the underlying ticker (the option identifier is not an OCC symbol)");
  const { levels, levelsSource } = shownLevels(reference?.chosen ?? null);
  const strike = body.strike_price;
  const spot = body.current_stock_price;
  const premium = body.current_option_price;
  const days = finite(body.days_to_expiry)
    ? body.days_to_expiry
    : dayNumberOf(body.expiration_date) - nyClock(now).dayNumber;
  const years = Math.max(0, days) / 365;
  const breakeven = finite(body.breakeven) ? body.breakeven : strike - premium;
  const iv = finite(body.implied_volatility) && body.implied_volatility > 0 ? body.implied_volatility : null;
  if (!iv) missing.push("implied volatility");

  const monthlyRoi = finite(body.calculated_monthly_roi)
    ? body.calculated_monthly_roi
    : days > 0
      ? ((premium / strike) * 30) / days
      : null;
  const annualizedRoi = finite(body.annualized_roi)
    ? body.annualized_roi
    : days > 0
      ? ((premium / strike) * 365) / days
      : null;
  if (monthlyRoi === null) missing.push("the return (the option expires today or has expired)");

  const intrinsicValue = Math.max(0, strike - spot);
  const timeValue = Math.max(0, premium - intrinsicValue);
  const commission = finite(body.commission) ? body.commission : DEFAULT_FILTERS.commission;
  const netReturn = (timeValue - commission / CONTRACT_SIZE) / strike;
  const worthlessReturn = (premium - commission / CONTRACT_SIZE) / strike;
  const tbillReturn = days > 0 ? (rate * days) / 365 : null;
  const probabilityOfAssignment =
    body.probability_of_assignment !== undefined && body.probability_of_assignment !== null
      ? body.probability_of_assignment
      : iv && years > 0
        ? probabilityBelow({ spot, level: strike, years, rate, volatility: iv })
        : null;

  let probabilityOfProfit: number | null = null;
  let probabilitySource: RecommendationFacts["probabilitySource"] = null;
  if (finite(body.probability_of_profit)) {
    probabilityOfProfit = body.probability_of_profit;
    probabilitySource = "given";
  } else if (iv && years > 0) {
    probabilityOfProfit = probabilityAbove({ spot, level: breakeven, years, rate, volatility: iv });
    probabilitySource = "model";
  } else {
    missing.push("the probability of profit");
  }

  let greeks: RecommendationFacts["greeks"] = null;
  if (finite(body.delta) && finite(body.theta) && finite(body.vega)) {
    greeks = withPerContract({ delta: body.delta, theta: body.theta, vega: body.vega }, "given");
  } else if (iv && years > 0) {
    greeks = withPerContract(bsGreeks(type, { spot, strike, years, rate, volatility: iv }), "model");
  } else {
    missing.push("the greeks (delta, theta, vega)");
  }

  const weeklyKnown = finite(body.option_weekly_low_price) && finite(body.option_weekly_high_price);
  if (!weeklyKnown) missing.push("the option's weekly range");
  if (!finite(body.volume) && !finite(body.open_interest)) missing.push("volume and open interest");
  if (body.earnings_date === undefined) missing.push("the earnings date");
  if (ticker && !reference) missing.push(`intrinsic values and buy levels (the provider does not track ${ticker})`);

  const conservative = levels && levels.conservative_iv > 0 ? levels.conservative_iv : null;
  let weeklyPosition: RecommendationFacts["weeklyPosition"] = null;
  if (weeklyKnown) {
    const low = body.option_weekly_low_price!;
    const high = body.option_weekly_high_price!;
    const third = (high - low) / 3;
    weeklyPosition = premium > high - third ? "top" : premium < low + third ? "bottom" : "middle";
  }
  return {
    contractSize: CONTRACT_SIZE,
    symbol: body.option_identifier,
    ticker,
    tracked: reference !== null,
    name: reference?.name ?? null,
    type,
    expiration: body.expiration_date,
    daysToExpiry: days,
    strike,
    stockPrice: spot,
    premium,
    premiumPerContract: premium * CONTRACT_SIZE,
    bid: finite(body.bid) ? body.bid : null,
    ask: finite(body.ask) ? body.ask : null,
    collateral: finite(body.collateral) ? body.collateral : strike * CONTRACT_SIZE,
    breakeven,
    cushion: finite(body.cushion) ? body.cushion : (spot - breakeven) / spot,
    strikeDistance: strike / spot - 1,
    inTheMoney: type === "put" ? strike > spot : strike < spot,
    intrinsic: type === "put" ? Math.max(0, strike - spot) : Math.max(0, spot - strike),
    monthlyRoi,
    annualizedRoi,
    mid: finite(body.bid) && finite(body.ask) ? (body.bid + body.ask) / 2 : null,
    timeValue,
    commission,
    netMonthly: days > 0 ? (netReturn * 30) / days : null,
    netAnnualized: days > 0 ? (netReturn * 365) / days : null,
    worthlessNetMonthly: days > 0 ? (worthlessReturn * 30) / days : null,
    worthlessNetAnnualized: days > 0 ? (worthlessReturn * 365) / days : null,
    tbillReturn,
    excessReturn: tbillReturn === null ? null : netReturn - tbillReturn,
    probabilityOfAssignment,
    ivRank: finite(body.iv_rank) ? body.iv_rank : null,
    ivPercentile: finite(body.iv_percentile) ? body.iv_percentile : null,
    ivHistoryDays: finite(body.iv_history_days) ? body.iv_history_days : null,
    probabilityOfProfit,
    probabilitySource,
    impliedVolatility: iv,
    historicalVolatility:
      finite(body.historical_volatility) && body.historical_volatility > 0 ? body.historical_volatility : null,
    greeks,
    weeklyLow: weeklyKnown ? body.option_weekly_low_price! : null,
    weeklyHigh: weeklyKnown ? body.option_weekly_high_price! : null,
    weeklyPosition,
    maxLossPerContract: Math.max(0, breakeven) * CONTRACT_SIZE,
    volume: finite(body.volume) ? body.volume : null,
    openInterest: finite(body.open_interest) ? body.open_interest : null,
    earnings: body.earnings_date
      ? {
          date: body.earnings_date,
          beforeExpiry:
            body.earnings_before_expiry ?? dayNumberOf(body.earnings_date) <= dayNumberOf(body.expiration_date),
        }
      : null,
    levelsSource,
    levels,
    buyLevel: buyLevelOf(strike, levels),
    strikeVsConservative: conservative ? strike / conservative - 1 : null,
    missing,
  };
}

/** Greeks per share with theta and vega per contract beside them, and where they came from. */
function withPerContract(
  g: { delta: number; theta: number; vega: number },
  source: "given" | "model",
): NonNullable<RecommendationFacts["greeks"]> {
  return {
    delta: g.delta,
    theta: g.theta,
    thetaPerContract: g.theta * CONTRACT_SIZE,
    vega: g.vega,
    vegaPerContract: g.vega * CONTRACT_SIZE,
    source,
  };
}
