import type { RollCandidates } from "#contract/rolls.ts";
import { ROLL_MAX_DAYS } from "#contract/rolls.ts";
import type { Db } from "#provider/db/client.ts";
import { HttpError, notFound } from "#provider/http/errors.ts";
import { nyClock } from "#provider/market/calendar.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData } from "#provider/market/port.ts";
import { marketRate } from "#provider/market/rates.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import { savedFilters } from "#provider/recommend/filters.ts";
import * as store from "./store.ts";
import { premiumOverLife, rollCandidates, testedOrLosing } from "./rolls.ts";
import { CONTRACT_SIZE, replay } from "./wheel.ts";

/**
 * The roll candidates of the open short put or covered call that `tradeId` opened, for its owner
 * only: someone else's trade answers 404 like a missing one (docs/decisions/0036, 0103).
 */
export async function rollCandidatesOf(
  db: Db,
  market: MarketData,
  userId: number,
  tradeId: number,
  now = marketNow(market).getTime(),
): Promise<RollCandidates> {
  const trade = await store.findTrade(db, userId, tradeId);
  if (!trade) throw notFound("Trade not found");
  if (trade.kind !== "sell_to_open" || trade.option_type === null) {
    throw new HttpError(
      422,
      "Roll candidates are for a sold option: this trade is not a sell-to-open of a put or call",
    );
  }
  const type = trade.option_type;
  const trades = (await store.listTrades(db, userId)).map(store.wheelTrade);
  const result = replay(trades, now);
  if (!result.ok) throw new HttpError(500, `The journal does not add up: ${result.refusal.reason}`);
  const leg = result.wheel.legs.find((l) => l.tradeIds.includes(tradeId));
  if (!leg) {
    const gone = type === "put" ? "bought back, expired or assigned" : "bought back, expired or called away";
    throw new HttpError(409, `This ${type} is no longer open: it was ${gone}`);
  }

  const [chain, earningsDate, filters] = await Promise.all([
    market.optionChain(leg.ticker),
    market.nextEarningsDate(leg.ticker).catch(() => null),
    savedFilters(db, userId),
  ]);
  const current = chain.expirations
    .find((e) => e.expiration === leg.expiry)
    ?.options.find((o) => o.type === type && Math.abs(o.strike - leg.strike) < 1e-6);
  if (!current || !(current.ask > 0)) {
    throw new HttpError(
      503,
      `The market has no ask for the ${leg.ticker} ${leg.strike} ${type} expiring ${leg.expiry} right now`,
    );
  }
  const shares = leg.contracts * CONTRACT_SIZE;
  const premiumCollected = premiumOverLife(leg, trades, (id) => result.wheel.results.get(id)?.pnl ?? null) / shares;
  // A covered call's shares, at the journal's adjusted basis (the open cycle of its ticker).
  const adjustedCostBasis =
    type === "call"
      ? (result.wheel.cycles.find((c) => c.ticker === leg.ticker && c.closedAt === null)?.adjustedCostBasis ?? null)
      : null;
  const { tested, losing } = testedOrLosing({
    optionType: type,
    strike: leg.strike,
    spot: chain.spot,
    mark: (current.bid + current.ask) / 2,
    premiumPerShare: leg.premium / shares,
  });
  const { candidates, closingCost } = rollCandidates({
    ticker: leg.ticker,
    optionType: type,
    adjustedCostBasis,
    strike: leg.strike,
    expiry: leg.expiry,
    contracts: leg.contracts,
    premiumCollected,
    closeAsk: current.ask,
    commission: filters.commission,
    spot: chain.spot,
    asOf: chain.asOf,
    today: nyClock(new Date(now)).dayNumber,
    rate: chain.rate ?? (await marketRate(market)),
    dividendYield: chain.dividendYield ?? 0,
    expirations: chain.expirations,
    earningsDate,
  });
  return {
    as_of: chain.asOf.toISOString(),
    ticker: leg.ticker,
    spot: chain.spot,
    position: {
      trade_id: tradeId,
      option_type: type,
      strike: leg.strike,
      expiry: leg.expiry,
      occ_symbol: formatOccSymbol({ ticker: leg.ticker, expiration: leg.expiry, type, strike: leg.strike }),
      contracts: leg.contracts,
      premium_collected: Math.round(premiumCollected * 10_000) / 10_000,
      close_ask: current.ask,
      adjusted_cost_basis: adjustedCostBasis === null ? null : Math.round(adjustedCostBasis * 100) / 100,
      tested,
      losing,
    },
    commission: filters.commission,
    closing_cost: closingCost,
    max_days: ROLL_MAX_DAYS,
    earnings_date: earningsDate,
    candidates,
  };
}
