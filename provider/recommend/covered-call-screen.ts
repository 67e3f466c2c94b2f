/**
 * The covered-call screen's use case (docs/decisions/0079): the trader's holdings from their journal
 * (shares, the cycle's adjusted basis, the calls already sold), each priced against its stock's
 * option chain by the pure core, through the trader's call filters.
 */
import type { CallFilterQuery, CoveredCalls, HoldingCalls } from "#contract/covered-calls.ts";
import type { Db } from "#provider/db/client.ts";
import { HttpError } from "#provider/http/errors.ts";
import * as journal from "#provider/journal/store.ts";
import { replay } from "#provider/journal/wheel.ts";
import { nyClock } from "#provider/market/calendar.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData } from "#provider/market/port.ts";
import { marketRate } from "#provider/market/rates.ts";
import { isSimulatedMarket } from "#provider/market/simulated.ts";
import { recordShownCalls } from "#provider/track-record/calls-store.ts";
import { contractsAvailable, coveredCallsFor } from "./covered-calls.ts";
import { baseValues, readerCallFilters } from "./covered-calls-store.ts";
import { savedFilters } from "./filters.ts";

const cents = (value: number) => Math.round(value * 100) / 100;
/** Holdings priced together (the generation job's concurrency, provider/recommend/generate.ts). */
const HOLDINGS_AT_ONCE = 4;

/** A holding whose market cannot be read says so on its own card; the others still show. */
const MARKET_FAILED = "Calls cannot be priced right now: the market data for this stock is unavailable.";

export async function coveredCallScreen(
  db: Db,
  market: MarketData,
  userId: number,
  query: CallFilterQuery | undefined,
  now = marketNow(market).getTime(),
): Promise<CoveredCalls> {
  const [filters, putFilters, trades] = await Promise.all([
    readerCallFilters(db, userId, query),
    savedFilters(db, userId),
    journal.listTrades(db, userId),
  ]);
  const result = replay(trades.map(journal.wheelTrade), now);
  // Stored trades always replayed when they were stored; a clock set back is the only way here.
  if (!result.ok) throw new HttpError(500, `The journal does not add up: ${result.refusal.reason}`);
  const { wheel } = result;
  const lots = wheel.lots.filter((lot) => lot.shares > 0).sort((a, b) => a.ticker.localeCompare(b.ticker));
  const bases = await baseValues(
    db,
    userId,
    lots.map((l) => l.ticker),
  );
  const rate = await marketRate(market);
  const commission = putFilters.commission;

  const holdingCalls = async (lot: (typeof lots)[number]): Promise<HoldingCalls> => {
    const cycle = wheel.cycles.find((c) => c.ticker === lot.ticker && c.closedAt === null);
    const adjustedBasis = cycle?.adjustedCostBasis ?? lot.cost / lot.shares;
    const openCallContracts = wheel.legs
      .filter((leg) => leg.ticker === lot.ticker && leg.optionType === "call")
      .reduce((n, leg) => n + leg.contracts, 0);
    const holding = {
      ticker: lot.ticker,
      shares: lot.shares,
      adjustedBasis,
      baseValue: bases.get(lot.ticker) ?? null,
      openCallContracts,
    };
    const card: HoldingCalls = {
      ticker: lot.ticker,
      shares: lot.shares,
      average_cost: cents(lot.cost / lot.shares),
      adjusted_basis: cents(adjustedBasis),
      base_value: holding.baseValue,
      open_call_contracts: openCallContracts,
      contracts_available: contractsAvailable(lot.shares, openCallContracts),
      spot: null,
      as_of: null,
      ex_dividend: null,
      earnings_date: null,
      calls: [],
      nearest: null,
      error: null,
    };
    try {
      const [chain, earningsDate, exDividend] = await Promise.all([
        market.optionChain(lot.ticker),
        market.nextEarningsDate(lot.ticker).catch(() => null),
        (market.nextExDividend?.(lot.ticker) ?? Promise.resolve(null)).catch(() => null),
      ]);
      const { calls, nearest } = coveredCallsFor(
        holding,
        {
          spot: chain.spot,
          asOf: chain.asOf,
          // The chain's own day, as the put engine counts days (engine.ts).
          today: nyClock(chain.asOf).dayNumber,
          rate: chain.rate ?? rate,
          dividendYield: chain.dividendYield ?? 0,
          expirations: chain.expirations,
          earningsDate,
          exDividend,
        },
        filters,
        commission,
      );
      return {
        ...card,
        spot: chain.spot,
        as_of: chain.asOf.toISOString(),
        ex_dividend: exDividend,
        earnings_date: earningsDate,
        calls,
        nearest,
      };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return { ...card, error: MARKET_FAILED };
    }
  };
  // A few holdings at a time, yielding between them: a trader with many holdings never holds the
  // event loop for the whole answer, nor asks a vendor for every chain at once.
  const holdings: HoldingCalls[] = [];
  for (let i = 0; i < lots.length; i += HOLDINGS_AT_ONCE) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    holdings.push(...(await Promise.all(lots.slice(i, i + HOLDINGS_AT_ONCE).map(holdingCalls))));
  }
  const screen: CoveredCalls = { as_of: new Date(now).toISOString(), commission, filters, holdings };
  // The calls shown are the ones the product suggested: the track record scores them at expiry
  // (docs/decisions/0088-track-record-scores-suggested-calls.md).
  await recordShownCalls(db, userId, screen, { simulated: isSimulatedMarket(market), now: new Date(now) });
  return screen;
}
