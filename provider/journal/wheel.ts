import type { TradeKind } from "#contract/entities.ts";
import { TRADE_REFUSAL } from "#contract/trade-refusals.ts";
import { closeMinuteOf, dayNumberOf, nyInstant } from "#provider/market/calendar.ts";

/**
 * The wheel's arithmetic, pure: trades in, positions, cycles and figures out. The provider replays a
 * trader's whole journal through it to answer the journal screen and to check a new trade against
 * what is open before storing it (docs/decisions/0024-wheel-journal-as-replayed-trades.md).
 *
 * Money is in dollars; an option's price is per share and one contract covers 100 shares.
 * A cycle is everything done on one ticker from its first opening trade until nothing is open on it
 * (no short option, no shares); a roll (buy-to-close linked to a sell-to-open) keeps it going.
 */
export const CONTRACT_SIZE = 100;
const DAY_MS = 86_400_000;

export interface WheelTrade {
  id: number;
  kind: TradeKind;
  ticker: string;
  optionType: "put" | "call" | null;
  strike: number | null;
  expiry: string | null;
  quantity: number;
  price: number;
  fees: number;
  /** ms since the epoch */
  tradedAt: number;
  rolledFrom: number | null;
}

export interface OpenLeg {
  ticker: string;
  optionType: "put" | "call";
  strike: number;
  expiry: string;
  contracts: number;
  /** Premium received for the open contracts, net of their opening fees. */
  premium: number;
  openedAt: number;
  tradeIds: number[];
}

export interface Lot {
  ticker: string;
  shares: number;
  /** Total paid for the shares held, buying fees included. */
  cost: number;
}

export interface Cycle {
  id: number;
  ticker: string;
  openedAt: number;
  closedAt: number | null;
  tradeIds: number[];
  /** Cash in minus cash out of every trade of the cycle (fees included). */
  cash: number;
  realisedPnl: number;
  /** Option premium received minus buy-backs, net of every option trade's fees. */
  premiumNet: number;
  capital: number;
  collateralDays: number;
  /** Adjusted cost basis per share while shares are held, else null. */
  adjustedCostBasis: number | null;
  /** The cycle as it went, put → shares → calls → called away: each trade and what it left (ADR 0079). */
  steps: CycleStep[];
}

export interface CycleStep {
  tradeId: number;
  /** Shares held after the trade. */
  shares: number;
  /** Adjusted cost basis per share after the trade (cash out less cash in, over the shares held); null without shares. */
  adjustedCostBasis: number | null;
}

export interface TradeResult {
  id: number;
  /** Realised P/L of a closing trade, net of fees of both legs; null for an opening trade. */
  pnl: number | null;
  cycleId: number;
}

export interface Wheel {
  results: Map<number, TradeResult>;
  legs: OpenLeg[];
  lots: Lot[];
  cycles: Cycle[];
  /**
   * Trades that left short calls without their shares, with the reason: a call sold beyond the
   * shares held, or shares sold from under open calls. The journal refuses new ones (covered calls
   * only, issue 41); trades stored before the rule replay and are listed here.
   */
  uncovered: Map<number, string>;
}

export interface Refusal {
  tradeId: number;
  reason: string;
}

export type Replay = { ok: true; wheel: Wheel } | { ok: false; refusal: Refusal };

const legKey = (t: { ticker: string; optionType: string | null; strike: number | null; expiry: string | null }) =>
  `${t.ticker}|${t.optionType}|${t.strike}|${t.expiry}`;
const cents = (value: number) => Math.round(value * 100) / 100;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const optionName = (t: { ticker: string; optionType: string | null; strike: number | null; expiry: string | null }) =>
  `${t.ticker} ${t.strike} ${t.optionType} expiring ${t.expiry}`;

/** The instant (ms) of the close of an option's expiry day in New York (13:00 on an early close). */
export function expiryCloseOf(expiry: string): number {
  const day = dayNumberOf(expiry);
  return nyInstant(day, closeMinuteOf(day)).getTime();
}

/**
 * Time order; a same-moment roll's buy-to-close goes before its sell-to-open, else by id. Trades
 * not stored yet (ids −1, −2, … in the order given) come after the stored ones of the same moment,
 * in that order, as the ids they will be stored under will: a call recorded in the same minute as
 * the shares it covers is covered.
 */
export function inTimeOrder<T extends WheelTrade>(trades: readonly T[]): T[] {
  const rank = (id: number) => (id > 0 ? id : Number.MAX_SAFE_INTEGER / 2 - id);
  return [...trades].sort(
    (a, b) =>
      a.tradedAt - b.tradedAt || (a.rolledFrom === b.id ? 1 : b.rolledFrom === a.id ? -1 : rank(a.id) - rank(b.id)),
  );
}

/**
 * Replays trades in time order. The first trade that cannot happen (closing more than is open,
 * an assignment with no open put, a trade dated after `now`, …) stops the replay with its reason.
 */
export function replay(trades: readonly WheelTrade[], now: number): Replay {
  const ordered = inTimeOrder(trades);
  const run = startReplay(now, ordered);
  for (const trade of ordered) {
    const refusal = run.feed(trade);
    if (refusal) return { ok: false, refusal };
  }
  return { ok: true, wheel: run.finish() };
}

/** A replay fed one trade at a time, in time order (an import checks each line as it goes, ADR 0073). */
interface ReplayRun {
  /**
   * Applies the trade, or answers why it cannot happen. A refused trade leaves the positions as they
   * were, so later trades can still be fed (the figures of a run that refused one are not to be used).
   */
  feed(trade: WheelTrade): Refusal | null;
  /** The wheel after the trades fed, open cycles counted up to `now`. */
  finish(): Wheel;
}

/** `known`: trades that will be fed, so a roll's buy-to-close knows a sell-to-open continues its cycle. */
export function startReplay(now: number, known: readonly WheelTrade[] = []): ReplayRun {
  const rolledFrom = new Set(known.map((t) => t.rolledFrom).filter((id): id is number => id !== null));
  const byId = new Map(known.map((t) => [t.id, t]));
  const legs = new Map<string, OpenLeg>();
  const lots = new Map<string, Lot>();
  const open = new Map<string, Cycle>();
  const cycles: Cycle[] = [];
  const results = new Map<number, TradeResult>();
  const lastAt = new Map<string, number>();
  const uncovered = new Map<number, string>();
  /** Shares the open short calls on a ticker need: 100 a contract. */
  const sharesCovering = (ticker: string) => {
    let contracts = 0;
    for (const leg of legs.values()) if (leg.ticker === ticker && leg.optionType === "call") contracts += leg.contracts;
    return contracts * CONTRACT_SIZE;
  };

  /** Cash tied up on a ticker: strike × 100 per open short put, plus what its shares cost. */
  const collateralOf = (ticker: string) => {
    let total = lots.get(ticker)?.cost ?? 0;
    for (const leg of legs.values()) {
      if (leg.ticker === ticker && leg.optionType === "put") total += leg.strike * CONTRACT_SIZE * leg.contracts;
    }
    return total;
  };
  // A put ties up its collateral until its expiry day's close, however late its expiry is recorded
  // (docs/decisions/0078): an expired leg awaiting resolution holds nothing.
  const accrue = (ticker: string, until: number) => {
    const cycle = open.get(ticker);
    const since = lastAt.get(ticker);
    if (cycle && since !== undefined && until > since) {
      let dollarMs = (lots.get(ticker)?.cost ?? 0) * (until - since);
      for (const leg of legs.values()) {
        if (leg.ticker !== ticker || leg.optionType !== "put") continue;
        const end = Math.min(until, expiryCloseOf(leg.expiry));
        if (end > since) dollarMs += leg.strike * CONTRACT_SIZE * leg.contracts * (end - since);
      }
      cycle.collateralDays += dollarMs / DAY_MS;
    }
    lastAt.set(ticker, until);
  };
  const refuse = (trade: WheelTrade, reason: string): Refusal => ({ tradeId: trade.id, reason });

  /**
   * A dividend (or cash in lieu) is cash of the ticker's cycle — the open one, or the last one when
   * it is paid after the shares went — realised when paid; it lowers the adjusted basis (ADR 0074).
   */
  const dividend = (trade: WheelTrade): Refusal | null => {
    const cycle = open.get(trade.ticker) ?? cycles.findLast((c) => c.ticker === trade.ticker);
    if (!cycle || !heldShares.has(cycle))
      return refuse(trade, `A dividend on ${trade.ticker} needs ${trade.ticker} shares held in the journal before it`);
    const cash = trade.quantity * trade.price - trade.fees;
    cycle.cash += cash;
    cycle.realisedPnl += cash;
    cycle.tradeIds.push(trade.id);
    const shares = open.get(trade.ticker) === cycle ? (lots.get(trade.ticker)?.shares ?? 0) : 0;
    cycle.steps.push({ tradeId: trade.id, shares, adjustedCostBasis: shares > 0 ? -cycle.cash / shares : null });
    results.set(trade.id, { id: trade.id, pnl: cents(cash), cycleId: cycle.id });
    return null;
  };

  /** Cycles in which shares were held: the ones a dividend can belong to. */
  const heldShares = new Set<Cycle>();

  const feed = (trade: WheelTrade): Refusal | null => {
    if (!byId.has(trade.id)) byId.set(trade.id, trade);
    if (trade.tradedAt > now) return refuse(trade, "A trade cannot be dated in the future");
    if (trade.rolledFrom !== null) {
      const from = byId.get(trade.rolledFrom);
      if (!from || from.kind !== "buy_to_close" || from.ticker !== trade.ticker || trade.kind !== "sell_to_open") {
        return refuse(trade, "A roll links a sell-to-open to a buy-to-close of the same ticker");
      }
    }
    if (trade.kind === "dividend") return dividend(trade);
    accrue(trade.ticker, trade.tradedAt);
    let cycle = open.get(trade.ticker);
    if (!cycle) {
      cycle = {
        id: cycles.length + 1,
        ticker: trade.ticker,
        openedAt: trade.tradedAt,
        closedAt: null,
        tradeIds: [],
        cash: 0,
        realisedPnl: 0,
        premiumNet: 0,
        capital: 0,
        collateralDays: 0,
        adjustedCostBasis: null,
        steps: [],
      };
      cycles.push(cycle);
      open.set(trade.ticker, cycle);
    }
    const lot = lots.get(trade.ticker) ?? { ticker: trade.ticker, shares: 0, cost: 0 };
    const key = legKey(trade);
    const leg = legs.get(key);
    const n = trade.quantity;
    const shares = n * CONTRACT_SIZE;
    let pnl: number | null = null;
    let cash = 0;

    /** The open short leg being closed, with the premium of the contracts closed; or a refusal. */
    const closing = (): { premium: number } | string => {
      const what = optionName(trade);
      if (!leg || leg.contracts === 0) return `There is no open short ${what} to close`;
      if (n > leg.contracts) {
        return `Closing ${plural(n, "contract")} is more than the open position of ${plural(leg.contracts, "contract")} (${what})`;
      }
      const premium = (leg.premium * n) / leg.contracts;
      leg.premium -= premium;
      leg.contracts -= n;
      if (leg.contracts === 0) legs.delete(key);
      return { premium };
    };

    switch (trade.kind) {
      case "stock_buy":
        cash = -(n * trade.price + trade.fees);
        lot.shares += n;
        lot.cost += -cash;
        break;
      case "stock_sell": {
        if (n > lot.shares) {
          return refuse(
            trade,
            `Selling ${plural(n, "share")} of ${trade.ticker} is more than the ${plural(lot.shares, "share")} held`,
          );
        }
        const cost = (lot.cost * n) / lot.shares;
        cash = n * trade.price - trade.fees;
        pnl = cash - cost;
        lot.shares -= n;
        lot.cost -= cost;
        const covering = sharesCovering(trade.ticker);
        if (lot.shares < covering) uncovered.set(trade.id, TRADE_REFUSAL.uncoveredBySale(trade.ticker, n, covering));
        break;
      }
      case "sell_to_open": {
        if (trade.expiry && Date.parse(`${trade.expiry}T23:59:59Z`) < trade.tradedAt) {
          return refuse(trade, `The ${optionName(trade)} had expired by the trade's date`);
        }
        if (trade.optionType === "call") {
          const covering = sharesCovering(trade.ticker);
          if (lot.shares < covering + shares) {
            const free = Math.max(0, lot.shares - covering);
            uncovered.set(trade.id, TRADE_REFUSAL.uncoveredCall(trade.ticker, n, shares, free));
          }
        }
        cash = shares * trade.price - trade.fees;
        const target = leg ?? {
          ticker: trade.ticker,
          optionType: trade.optionType!,
          strike: trade.strike!,
          expiry: trade.expiry!,
          contracts: 0,
          premium: 0,
          openedAt: trade.tradedAt,
          tradeIds: [],
        };
        target.contracts += n;
        target.premium += cash;
        target.tradeIds.push(trade.id);
        legs.set(key, target);
        cycle.premiumNet += cash;
        break;
      }
      case "buy_to_close":
      case "expire": {
        if (trade.kind === "expire" && trade.expiry && trade.tradedAt < Date.parse(`${trade.expiry}T00:00:00Z`)) {
          return refuse(trade, `The ${optionName(trade)} cannot expire before ${trade.expiry}`);
        }
        const closed = closing();
        if (typeof closed === "string") return refuse(trade, closed);
        cash = trade.kind === "expire" ? -trade.fees : -(shares * trade.price + trade.fees);
        pnl = closed.premium + cash;
        cycle.premiumNet += cash;
        break;
      }
      case "assignment": {
        if (trade.optionType !== "put") {
          return refuse(
            trade,
            "Assignment records a short put turned into shares; a short call assigned is recorded as called away",
          );
        }
        const closed = closing();
        if (typeof closed === "string")
          return refuse(
            trade,
            `Assignment needs an open short put: ${closed.charAt(0).toLowerCase()}${closed.slice(1)}`,
          );
        // The put's premium is kept; the shares are bought at the strike.
        pnl = closed.premium - trade.fees;
        cycle.premiumNet -= trade.fees;
        cash = -(shares * trade.strike! + trade.fees);
        lot.shares += shares;
        lot.cost += shares * trade.strike!;
        break;
      }
      case "exercise": {
        if (trade.optionType !== "call")
          return refuse(trade, "Called away records a short call exercised against shares held");
        if (lot.shares < shares) {
          return refuse(
            trade,
            `Called away takes ${plural(shares, "share")} of ${trade.ticker}; ${plural(lot.shares, "share is", "shares are")} held`,
          );
        }
        const closed = closing();
        if (typeof closed === "string") return refuse(trade, closed);
        // The call's premium is kept; the shares go at the strike.
        const cost = (lot.cost * shares) / lot.shares;
        cash = shares * trade.strike! - trade.fees;
        pnl = closed.premium + cash - cost;
        cycle.premiumNet -= trade.fees;
        lot.shares -= shares;
        lot.cost -= cost;
        break;
      }
    }

    if (lot.shares > 0) heldShares.add(cycle);
    if (lot.shares > 0) lots.set(trade.ticker, lot);
    else lots.delete(trade.ticker);
    cycle.cash += cash;
    cycle.tradeIds.push(trade.id);
    cycle.steps.push({
      tradeId: trade.id,
      shares: lot.shares,
      adjustedCostBasis: lot.shares > 0 ? -cycle.cash / lot.shares : null,
    });
    if (pnl !== null) cycle.realisedPnl += pnl;
    cycle.capital = Math.max(cycle.capital, collateralOf(trade.ticker));
    results.set(trade.id, { id: trade.id, pnl: pnl === null ? null : cents(pnl), cycleId: cycle.id });

    const stillOpen = lot.shares > 0 || [...legs.values()].some((l) => l.ticker === trade.ticker);
    if (!stillOpen && !rolledFrom.has(trade.id)) {
      cycle.closedAt = trade.tradedAt;
      open.delete(trade.ticker);
      lastAt.delete(trade.ticker);
    }
    return null;
  };

  const finish = (): Wheel => {
    // Open cycles count their collateral up to now.
    for (const ticker of open.keys()) accrue(ticker, now);
    for (const cycle of cycles) {
      const lot = lots.get(cycle.ticker);
      cycle.adjustedCostBasis = cycle.closedAt === null && lot ? -cycle.cash / lot.shares : null;
    }
    return { results, legs: [...legs.values()], lots: [...lots.values()], cycles, uncovered };
  };
  return { feed, finish };
}

/** A cycle's return on capital (P/L ÷ capital) and annualised return on collateral-days (P/L ÷ collateral-days × 365). */
export function cycleFigures(cycle: Cycle) {
  return {
    returnOnCapital: cycle.capital > 0 ? cycle.realisedPnl / cycle.capital : null,
    annualisedReturn: cycle.collateralDays > 0 ? (cycle.realisedPnl / cycle.collateralDays) * 365 : null,
  };
}

/** Figures of an open short option at a mark (mid of bid and ask); fees to close are not included. */
export function legAtMark(leg: OpenLeg, mark: number | null, now: number) {
  const pnlAtMark = mark === null ? null : leg.premium - mark * CONTRACT_SIZE * leg.contracts;
  return {
    collateral: leg.optionType === "put" ? leg.strike * CONTRACT_SIZE * leg.contracts : 0,
    premiumKept: leg.premium,
    daysHeld: (now - leg.openedAt) / DAY_MS,
    pnlAtMark,
    pctMaxProfit: pnlAtMark === null || leg.premium <= 0 ? null : pnlAtMark / leg.premium,
  };
}

/** Option cash of a trade: premium in, buy-backs out, every option fee out; 0 for stock trades. */
function premiumCash(trade: WheelTrade): number {
  switch (trade.kind) {
    case "sell_to_open":
      return trade.quantity * CONTRACT_SIZE * trade.price - trade.fees;
    case "buy_to_close":
      return -(trade.quantity * CONTRACT_SIZE * trade.price + trade.fees);
    case "expire":
    case "assignment":
    case "exercise":
      return -trade.fees;
    default:
      return 0;
  }
}

/**
 * The period's figures: realised P/L, closing trades and win rate over trades dated from `from`
 * (all when null) to `now`; net premium in the calendar month and year of `now` (UTC).
 */
export function periodStats(trades: readonly WheelTrade[], wheel: Wheel, from: number | null, now: number) {
  const date = new Date(now);
  const monthStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  let realised = 0;
  let closing = 0;
  let wins = 0;
  let premiumMonth = 0;
  let premiumYear = 0;
  const byTicker = new Map<string, number>();
  for (const trade of trades) {
    if (trade.tradedAt > now) continue;
    const premium = premiumCash(trade);
    if (trade.tradedAt >= monthStart) premiumMonth += premium;
    if (trade.tradedAt >= yearStart) premiumYear += premium;
    if (from !== null && trade.tradedAt < from) continue;
    const pnl = wheel.results.get(trade.id)?.pnl ?? null;
    if (pnl === null) continue;
    realised += pnl;
    byTicker.set(trade.ticker, (byTicker.get(trade.ticker) ?? 0) + pnl);
    // A dividend is income, not a closing trade: it counts in P/L but not in the win rate.
    if (trade.kind === "dividend") continue;
    closing += 1;
    if (pnl > 0) wins += 1;
  }
  // The win rate counts cycles closed in the period (issue 46): a roll's buy-back at a loss is part
  // of a cycle that may still end with a gain, not a losing trade of its own.
  let closedCycles = 0;
  let cycleWins = 0;
  for (const cycle of wheel.cycles) {
    if (cycle.closedAt === null || cycle.closedAt > now || (from !== null && cycle.closedAt < from)) continue;
    closedCycles += 1;
    if (cycle.realisedPnl > 0) cycleWins += 1;
  }
  return {
    realisedPnl: cents(realised),
    closingTrades: closing,
    /** Trades that closed with a gain, for the record; the win rate is by cycle. */
    winningTrades: wins,
    closedCycles,
    winRate: closedCycles > 0 ? cycleWins / closedCycles : null,
    premiumMonth: cents(premiumMonth),
    premiumYear: cents(premiumYear),
    byTicker: [...byTicker]
      .map(([ticker, pnl]) => ({ ticker, realisedPnl: cents(pnl) }))
      .sort((a, b) => a.ticker.localeCompare(b.ticker)),
  };
}
