import type { Db } from "#provider/db/client.ts";
import type { Journal, Trade } from "#contract/entities.ts";
import { HttpError, notFound } from "#provider/http/errors.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData } from "#provider/market/port.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import { positionKey, sentAlertsOf } from "#provider/alerts/position-alerts.ts";
import type { PositionAlertsByOption } from "#contract/position-alerts.ts";
import * as store from "./store.ts";
import { testedOrLosing } from "./rolls.ts";
import { expiryCloseOf, isPastExpiry } from "./expiry.ts";
import { expiryRefusal } from "./trade-checks.ts";
import { CONTRACT_SIZE, cycleFigures, legAtMark, periodStats, replay, type WheelTrade } from "./wheel.ts";

/**
 * The journal's use cases: add a trade (or a roll) only when the whole journal still replays with
 * it, and the journal screen's figures (broker files: import.ts). Every write runs in one transaction
 * under the user's journal lock.
 */

export const KIND_WORDS: Record<Trade["kind"], string> = {
  stock_buy: "share purchase",
  stock_sell: "share sale",
  sell_to_open: "sell-to-open",
  buy_to_close: "buy-to-close",
  expire: "expiry",
  assignment: "assignment",
  exercise: "called away",
  dividend: "dividend",
};

interface Candidate {
  trade: store.NewTrade;
  /** Links a sell-to-open to the candidate at this index (a roll's buy-to-close). */
  rollOf?: number;
  importKey?: string;
  source?: Trade["source"];
}

/**
 * The refusal that replaying `existing` with `candidates` (ids −1, −2, …) gives, as a reason; null
 * when it replays. With `entered` (a trade the trader types, not a broker's record), a candidate must
 * also expire on a trading day and leave no short call without its shares (issue 41); trades stored
 * before those rules are not refused again.
 */
function refusalOf(existing: Trade[], candidates: Candidate[], now: number, entered = false): string | null {
  if (entered) {
    for (const candidate of candidates) {
      const refusal = expiryRefusal(candidate.trade);
      if (refusal) return refusal;
    }
  }
  const trial: WheelTrade[] = [
    ...existing.map(store.wheelTrade),
    ...candidates.map((c, i) =>
      store.wheelTrade({ ...c.trade, id: -(i + 1), rolled_from: c.rollOf === undefined ? null : -(c.rollOf + 1) }),
    ),
  ];
  const result = replay(trial, now);
  if (result.ok) return entered ? uncoveredRefusal(existing, result.wheel.uncovered, now) : null;
  const { tradeId, reason } = result.refusal;
  if (tradeId < 0) return reason;
  const later = existing.find((t) => t.id === tradeId)!;
  return `It would leave the ${KIND_WORDS[later.kind]} of ${later.ticker} on ${later.traded_at.slice(0, 10)} impossible: ${reason}`;
}

/** A candidate (id < 0) that leaves a short call without its shares, or a stored call it uncovers. */
function uncoveredRefusal(existing: Trade[], uncovered: Map<number, string>, now: number): string | null {
  for (const [id, reason] of uncovered) if (id < 0) return reason;
  if (uncovered.size === 0) return null;
  const before = replay(existing.map(store.wheelTrade), now);
  const was = before.ok ? before.wheel.uncovered : new Map<number, string>();
  for (const [id, reason] of uncovered) {
    if (was.has(id)) continue;
    const later = existing.find((t) => t.id === id)!;
    return `It would leave the ${KIND_WORDS[later.kind]} of ${later.ticker} on ${later.traded_at.slice(0, 10)} impossible: ${reason}`;
  }
  return null;
}

/**
 * Stores the trades if the journal replays with them; 422 with the reason otherwise. `candidates` may
 * be planned from the journal as it is under the lock (the reconciliation's fixes, which refuse there
 * when their difference has gone).
 */
export async function addTrades(
  db: Db,
  userId: number,
  planned: Candidate[] | ((existing: Trade[]) => Candidate[]),
  now = Date.now(),
): Promise<Trade[]> {
  return db.transaction().execute(async (tx) => {
    await store.lockJournal(tx, userId);
    const existing = await store.listTrades(tx, userId);
    const candidates = typeof planned === "function" ? planned(existing) : planned;
    const refusal = refusalOf(existing, candidates, now, true);
    if (refusal) throw new HttpError(422, refusal);
    const added: Trade[] = [];
    for (const candidate of candidates) {
      const rolledFrom = candidate.rollOf === undefined ? undefined : added[candidate.rollOf]!.id;
      added.push(
        await store.insertTrade(tx, userId, candidate.trade, {
          ...(rolledFrom === undefined ? {} : { rolledFrom }),
          ...(candidate.importKey ? { importKey: candidate.importKey, source: candidate.source ?? "manual" } : {}),
        }),
      );
    }
    return added;
  });
}

/** Removes a trade unless a later trade needs it (e.g. the put an assignment closed): 409 then. */
export async function removeTrade(db: Db, userId: number, id: number, now = Date.now()): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await store.lockJournal(tx, userId);
    const existing = await store.listTrades(tx, userId);
    if (!existing.some((t) => t.id === id)) throw notFound("Trade not found");
    const rest = existing
      .filter((t) => t.id !== id)
      .map((t) => (t.rolled_from === id ? { ...t, rolled_from: null } : t));
    const result = replay(rest.map(store.wheelTrade), now);
    if (!result.ok) {
      throw new HttpError(409, `A later trade needs this one: ${result.refusal.reason}`);
    }
    await store.deleteTrade(tx, userId, id);
  });
}

/** The mid of the option's bid and ask (null when the market has no quote for it), and the stock's price. */
async function markOf(
  market: MarketData,
  leg: { ticker: string; optionType: "put" | "call"; strike: number; expiry: string },
): Promise<{ mark: number | null; spot: number | null }> {
  try {
    const chain = await market.optionChain(leg.ticker);
    const expiration = chain.expirations.find((e) => e.expiration === leg.expiry);
    const option = expiration?.options.find((o) => o.type === leg.optionType && Math.abs(o.strike - leg.strike) < 1e-6);
    if (!option || option.ask <= 0) return { mark: null, spot: chain.spot };
    return { mark: Math.round(((option.bid + option.ask) / 2) * 100) / 100, spot: chain.spot };
  } catch {
    return { mark: null, spot: null };
  }
}

const cents = (value: number) => Math.round(value * 100) / 100;
const ratio = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);

export async function buildJournal(
  db: Db,
  market: MarketData,
  userId: number,
  from: number | null,
  now = marketNow(market).getTime(),
): Promise<Journal & { position_alerts: PositionAlertsByOption }> {
  const trades = await store.listTrades(db, userId);
  const wheelTrades = trades.map(store.wheelTrade);
  const result = replay(wheelTrades, now);
  // Stored trades always replayed when they were stored; a clock set back is the only way here.
  if (!result.ok) throw new HttpError(500, `The journal does not add up: ${result.refusal.reason}`);
  const { wheel } = result;
  // Past its expiry day's close a leg awaits its resolution (ADR 0078): no mark, days held or collateral.
  const expired = wheel.legs.map((leg) => isPastExpiry(leg.expiry, now));
  const [marks, alerts] = await Promise.all([
    Promise.all(wheel.legs.map((leg, i) => (expired[i] ? { mark: null, spot: null } : markOf(market, leg)))),
    sentAlertsOf(db, userId),
  ]);
  const stats = periodStats(wheelTrades, wheel, from, now);
  const byId = new Map(trades.map((t) => [t.id, t]));
  return {
    as_of: new Date(now).toISOString(),
    rows: trades
      .filter((t) => from === null || Date.parse(t.traded_at) >= from)
      .reverse()
      .map((t) => ({
        ...t,
        realised_pnl: wheel.results.get(t.id)?.pnl ?? null,
        cycle_id: wheel.results.get(t.id)!.cycleId,
      })),
    open_options: wheel.legs.map((leg, i) => {
      const { mark, spot } = marks[i]!;
      const awaiting = expired[i]!;
      const figures = legAtMark(leg, mark, awaiting ? Math.min(now, expiryCloseOf(leg.expiry)) : now);
      const roll = testedOrLosing({
        optionType: leg.optionType,
        strike: leg.strike,
        spot,
        mark,
        premiumPerShare: leg.premium / (leg.contracts * CONTRACT_SIZE),
      });
      return {
        ticker: leg.ticker,
        option_type: leg.optionType,
        strike: leg.strike,
        expiry: leg.expiry,
        occ_symbol: formatOccSymbol({
          ticker: leg.ticker,
          expiration: leg.expiry,
          type: leg.optionType,
          strike: leg.strike,
        }),
        contracts: leg.contracts,
        opened_at: new Date(leg.openedAt).toISOString(),
        trade_ids: leg.tradeIds,
        collateral: awaiting ? 0 : cents(figures.collateral),
        premium_kept: cents(figures.premiumKept),
        days_held: Math.floor(figures.daysHeld),
        mark,
        pnl_at_mark: figures.pnlAtMark === null ? null : cents(figures.pnlAtMark),
        pct_max_profit: ratio(figures.pctMaxProfit),
        tested: roll.tested,
        losing: roll.losing,
        awaiting_resolution: awaiting,
        expires_at: new Date(expiryCloseOf(leg.expiry)).toISOString(),
      };
    }),
    position_alerts: Object.fromEntries(
      wheel.legs.flatMap((leg) => {
        const occSymbol = formatOccSymbol({
          ticker: leg.ticker,
          expiration: leg.expiry,
          type: leg.optionType,
          strike: leg.strike,
        });
        const sent = alerts.get(positionKey(occSymbol, leg.tradeIds));
        return sent ? [[occSymbol, sent]] : [];
      }),
    ),
    share_lots: wheel.lots.map((lot) => {
      const cycle = wheel.cycles.find((c) => c.ticker === lot.ticker && c.closedAt === null);
      return {
        ticker: lot.ticker,
        shares: lot.shares,
        average_cost: cents(lot.cost / lot.shares),
        adjusted_cost_basis: cents(cycle?.adjustedCostBasis ?? lot.cost / lot.shares),
      };
    }),
    cycles: wheel.cycles
      .filter((c) => from === null || c.closedAt === null || c.closedAt >= from)
      .reverse()
      .map((c) => {
        const figures = cycleFigures(c);
        return {
          id: c.id,
          ticker: c.ticker,
          opened_at: new Date(c.openedAt).toISOString(),
          closed_at: c.closedAt === null ? null : new Date(c.closedAt).toISOString(),
          trade_ids: c.tradeIds,
          realised_pnl: cents(c.realisedPnl),
          premium_net: cents(c.premiumNet),
          capital: cents(c.capital),
          return_on_capital: ratio(figures.returnOnCapital),
          collateral_days: Math.round(c.collateralDays),
          annualised_return: ratio(figures.annualisedReturn),
          adjusted_cost_basis: c.adjustedCostBasis === null ? null : cents(c.adjustedCostBasis),
          steps: c.steps.map((step) => {
            const t = byId.get(step.tradeId)!;
            return {
              trade_id: t.id,
              traded_at: t.traded_at,
              kind: t.kind,
              option_type: t.option_type,
              strike: t.strike,
              quantity: t.quantity,
              price: t.price,
              shares: step.shares,
              adjusted_cost_basis: step.adjustedCostBasis === null ? null : cents(step.adjustedCostBasis),
            };
          }),
        };
      }),
    stats: {
      realised_pnl: stats.realisedPnl,
      closing_trades: stats.closingTrades,
      closed_cycles: stats.closedCycles,
      win_rate: ratio(stats.winRate),
      premium_month: stats.premiumMonth,
      premium_year: stats.premiumYear,
      by_ticker: stats.byTicker.map((t) => ({ ticker: t.ticker, realised_pnl: t.realisedPnl })),
    },
  };
}
