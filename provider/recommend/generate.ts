/**
 * Generating a ticker's recommendations: gather the market data, run the engine, store the pool
 * (retiring the previous one), then publish the trade updates of docs/product.md#states-live and tell the users who
 * flagged the ticker. What each trader sees of the pool is chosen when they read it (selection.ts).
 */
import type { Db } from "#provider/db/client.ts";
import { staleMarketData, type MarketData } from "#provider/market/port.ts";
import { nyClock, isoDateOf } from "#provider/market/calendar.ts";
import { notFound } from "#provider/http/errors.ts";
import type { EventBus } from "#provider/bus/bus.ts";
import { TRADE_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import type { TopLineRecommendation, TradeRecommendation } from "#contract/entities.ts";
import type { TradeUpdate } from "#contract/ws.ts";
import {
  analyzeChain,
  HV_WINDOW,
  IV_RANK_WINDOW,
  type Analysis,
  type Candidate,
  type EngineSettings,
} from "./engine.ts";
import { referenceLevels } from "./levels.ts";
import { DEFAULT_FILTERS } from "./selection.ts";
import {
  generationInputs,
  publicLevels,
  readerView,
  storeRun,
  topLineOf,
  type RunInputs,
  type SelectedOption,
} from "./store.ts";

/** Trading days of option closes behind the weekly low and high. */
const WEEKLY_DAYS = 5;
/**
 * The users who flagged a ticker hear about new recommendations at most this often: the set
 * shifts with the price at every scheduled run, and a push every 15 minutes would be noise.
 */
const ANNOUNCE_MIN_GAP_MS = 6 * 3_600_000;

export interface RecommendContext {
  db: Db;
  market: MarketData;
  /** Where the trade updates go; nothing is published without one. */
  bus?: EventBus | undefined;
  /**
   * Tells the users who flagged the stock that a set with new recommendations is ready (a stored
   * notification and a push). Called only when the set holds options the previous one did not,
   * and at most once per ANNOUNCE_MIN_GAP_MS per stock.
   */
  announce?:
    ((update: { stockId: number; ticker: string; count: number; fresh: number }) => Promise<unknown>) | undefined;
}

export interface GenerateOptions {
  /** The signed-in user who asked; their watchlist levels rank the puts when they have the ticker. */
  callerId?: number | undefined;
  /** Recorded with the run: e.g. "user:12", "schedule". */
  trigger: string;
  settings?: Partial<EngineSettings> | undefined;
}

export interface GenerateResult {
  ticker: string;
  stockId: number;
  runId: number;
  /** The default view of the new pool (default filters, the shared UIP levels), as published. */
  recommendations: TradeRecommendation[];
  /** The stock's summary (count 0 when nothing passed), with the shared intrinsic value, as published. */
  topLine: TopLineRecommendation;
  /** Recommended options the previous set did not hold. */
  fresh: number;
  analysis: Analysis;
}

export async function generateRecommendations(
  context: RecommendContext,
  ticker: string,
  options: GenerateOptions,
): Promise<GenerateResult> {
  const { db, market } = context;
  const symbol = ticker.trim().toUpperCase();
  const [known, chain, history, earningsDate] = await Promise.all([
    generationInputs(db, symbol, options.callerId, IV_RANK_WINDOW),
    market.optionChain(symbol),
    market.dailyHistory(symbol, HV_WINDOW + 5),
    market.nextEarningsDate(symbol),
  ]).catch(async (error: unknown) => {
    // A ticker we do not track is "Not found", whatever the market says of it.
    if (!(await generationInputs(db, symbol, undefined, 0))) throw notFound();
    throw error;
  });
  if (!known) throw notFound();
  if (chain.stale) throw staleMarketData(symbol, chain.asOf);
  const { stock } = known;
  const { levels, source } = await referenceLevels(db, stock.id, known);
  const today = history.at(-1)?.time ?? isoDateOf(nyClock(chain.asOf).dayNumber);
  const analysis = analyzeChain({
    chain,
    closes: history.map((bar) => bar.close),
    levels,
    earningsDate,
    ivHistory: await ivHistoryOf(market, symbol, known.ivHistory, today),
    settings: options.settings,
  });

  // The whole pool is stored; the default view's picks keep their place within their expiry.
  const rankWithin = new Map<string, number>();
  const rankOf = new Map<string, number>();
  for (const candidate of analysis.selected) {
    const rank = (rankWithin.get(candidate.expiration) ?? 0) + 1;
    rankWithin.set(candidate.expiration, rank);
    rankOf.set(candidate.symbol, rank);
  }
  const selected: SelectedOption[] = await Promise.all(
    analysis.candidates.map(async (candidate) => ({
      candidate,
      rank: rankOf.get(candidate.symbol) ?? 0,
      ...(await weeklyRange(market, candidate)),
    })),
  );

  const activeBefore = new Set(known.active);
  const announce =
    context.announce !== undefined &&
    analysis.selected.some((c) => !activeBefore.has(c.symbol)) &&
    (known.lastAnnounced === null || Date.now() - known.lastAnnounced.getTime() >= ANNOUNCE_MIN_GAP_MS);
  const inputs: RunInputs = {
    ticker: stock.ticker,
    as_of: analysis.asOf.toISOString(),
    source: chain.source,
    spot: analysis.spot,
    rate: analysis.rate,
    dividend_yield: analysis.dividendYield,
    historical_volatility: analysis.historicalVolatility,
    hv_returns: analysis.hvReturns,
    atm_implied_volatility: analysis.atmImpliedVolatility,
    iv_rank: analysis.ivRank,
    iv_percentile: analysis.ivPercentile,
    iv_history_days: analysis.ivHistoryDays,
    earnings_date: earningsDate,
    levels: { ...levels },
    levels_source: source,
    trigger: options.trigger,
    announced: announce,
    settings: { ...analysis.settings },
    puts_in_chain: analysis.putsInChain,
    eligible: analysis.eligible,
    options_priced: analysis.optionsPriced,
    candidates: analysis.candidates.length,
  };
  const lastBar = history.at(-1);
  const stored = await storeRun(db, {
    stockId: stock.id,
    earningsDate,
    ivRank: analysis.ivRank,
    ivPercentile: analysis.ivPercentile,
    ivHistoryDays: analysis.ivHistoryDays,
    selected,
    atmIv:
      analysis.atmImpliedVolatility !== null && lastBar
        ? {
            day: lastBar.time,
            value: analysis.atmImpliedVolatility,
            bar: {
              open: lastBar.open,
              high: lastBar.high,
              low: lastBar.low,
              close: lastBar.close,
              volume: lastBar.volume,
            },
          }
        : undefined,
    inputs,
  });

  // Every signed-in browser receives the live updates, so they carry only shared values: the default
  // view against the UIP row, never the generating user's own levels. Each page reads its reader's
  // own view again (their levels and filters) when the update concerns the stock it shows.
  const shared = await publicLevels(db, stock.id);
  const recommendations = readerView(stored.pool, shared, DEFAULT_FILTERS);
  const summary = {
    ...topLineOf({
      stock,
      inputs,
      createdAt: stored.createdAt,
      count: recommendations.filter((r) => !r.nearest_above_conservative).length,
    }),
    average_iv: shared?.average_iv ?? 0,
  };
  const before = activeBefore;
  const fresh = analysis.selected.filter((c) => !before.has(c.symbol)).length;

  if (context.bus) {
    const updates: TradeUpdate[] = [
      { type: "trade_recommendations_update", ticker: stock.ticker, data: recommendations },
      { type: "trade_recommendations_top_line_update", ticker: stock.ticker, data: summary },
    ];
    for (const update of updates) {
      // The set is stored either way; a live view that misses the update reloads it.
      await context.bus.publish(TRADE_UPDATES_CHANNEL, update).catch((error: Error) => {
        console.error(`[recommend] publishing ${update.type} for ${stock.ticker} failed: ${error.message}`);
      });
    }
  }
  if (announce && fresh > 0 && context.announce) {
    await context
      .announce({ stockId: stock.id, ticker: stock.ticker, count: recommendations.length, fresh })
      .catch((error: Error) => {
        console.error(`[recommend] notifying about ${stock.ticker} failed: ${error.message}`);
      });
  }

  return {
    ticker: stock.ticker,
    stockId: stock.id,
    runId: stored.runId,
    recommendations,
    topLine: summary,
    fresh,
    analysis,
  };
}

/**
 * The daily ATM IVs behind the IV rank: those stored before today; when fewer than a year and the
 * source can reconstruct past ones (the simulated market), its backfill fills the missing days.
 */
async function ivHistoryOf(
  market: MarketData,
  ticker: string,
  stored: readonly { day: string; atm_iv: number }[],
  today: string,
): Promise<number[]> {
  return (await pastAtmIvs(market, ticker, stored, today)).map((h) => h.atm_iv);
}

/**
 * The daily ATM IVs before `today`, oldest first, at most a year: the stored ones, topped up from
 * the market's own history when fewer are stored. The AI's facts read the same (ai/facts.ts), so
 * an explanation's IV rank is the one generation computes.
 */
export async function pastAtmIvs(
  market: MarketData,
  ticker: string,
  stored: readonly { day: string; atm_iv: number }[],
  today: string,
): Promise<{ day: string; atm_iv: number }[]> {
  const byDay = new Map(stored.filter((h) => h.day < today).map((h) => [h.day, h.atm_iv]));
  if (byDay.size < IV_RANK_WINDOW && market.atmIvHistory) {
    for (const h of await market.atmIvHistory(ticker, IV_RANK_WINDOW)) {
      if (h.day < today && !byDay.has(h.day)) byDay.set(h.day, h.iv);
    }
  }
  return [...byDay.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .slice(-IV_RANK_WINDOW)
    .map(([day, atm_iv]) => ({ day, atm_iv }));
}

/** Low and high daily close of the option over the last five trading days; its premium when there are none. */
async function weeklyRange(market: MarketData, c: Candidate): Promise<{ weeklyLow: number; weeklyHigh: number }> {
  let closes: number[] = [];
  try {
    closes = (await market.optionHistory(c.symbol, WEEKLY_DAYS)).map((x) => x.close).filter((x) => x > 0);
  } catch (error) {
    console.warn(`[recommend] no history for ${c.symbol}: ${(error as Error).message}`);
  }
  if (closes.length === 0) return { weeklyLow: c.premium, weeklyHigh: c.premium };
  return { weeklyLow: Math.min(...closes), weeklyHigh: Math.max(...closes) };
}

/** Tickers generated at once by generateMany: enough to overlap database round trips, few enough for the pool. */
export const GENERATION_CONCURRENCY = 4;

export interface ManyOutcome {
  ticker: string;
  result?: GenerateResult;
  error?: Error;
}

/**
 * Generates several tickers, a few at a time; one ticker failing does not stop the others. Stops
 * starting new ones once `signal` aborts.
 */
export async function generateMany(
  context: RecommendContext,
  tickers: readonly string[],
  options: GenerateOptions & { concurrency?: number | undefined; signal?: AbortSignal | undefined },
): Promise<ManyOutcome[]> {
  const outcomes: ManyOutcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tickers.length && !options.signal?.aborted) {
      const ticker = tickers[next++]!;
      try {
        outcomes.push({ ticker, result: await generateRecommendations(context, ticker, options) });
      } catch (error) {
        outcomes.push({ ticker, error: error instanceof Error ? error : new Error(String(error)) });
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? GENERATION_CONCURRENCY, tickers.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}
