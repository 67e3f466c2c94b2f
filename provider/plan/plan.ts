import type { CapitalSettings, Plan, PlanExposure, PutFit, Scenario } from "#contract/plan.ts";
import { buyLevelAtOrAbove, type ReferenceLevels } from "#provider/recommend/level-flags.ts";
import { CONTRACT_SIZE, expiryCloseOf, type OpenLeg, type Wheel } from "#provider/journal/wheel.ts";

/**
 * The trader's book, pure (docs/decisions/0081-capital-plan-from-the-journal-replay.md): the open
 * legs and share lots of the journal replay in, the Plan screen's figures, the fit of a put and
 * the best puts out. Money in dollars; collateral is cash-secured (strike × 100 × contracts).
 */

/** What the book needs of one held lot: its shares and adjusted basis per share (premiums taken off). */
export interface HeldLot {
  ticker: string;
  shares: number;
  adjustedBasis: number;
}

/** The replay's share lots at their open cycle's adjusted basis (the journal screen's figure). */
export function heldLotsOf(wheel: Pick<Wheel, "lots" | "cycles">): HeldLot[] {
  return wheel.lots.map((lot) => {
    const cycle = wheel.cycles.find((c) => c.ticker === lot.ticker && c.closedAt === null);
    return { ticker: lot.ticker, shares: lot.shares, adjustedBasis: cycle?.adjustedCostBasis ?? lot.cost / lot.shares };
  });
}

export interface PlanInputs {
  settings: CapitalSettings;
  legs: readonly OpenLeg[];
  lots: readonly HeldLot[];
  /** Last price per ticker (absent or 0 when unknown). */
  spots: ReadonlyMap<string, number>;
  /** The trader's own levels per ticker (watchlist row), when they have them. */
  levels: ReadonlyMap<string, ReferenceLevels>;
  sectors: ReadonlyMap<string, string>;
  /** Market moves to each expiry, −0.05 = 5 % lower; `custom` one added after them. */
  moves: readonly number[];
  custom?: number | undefined;
  now: number;
}

const UNKNOWN_SECTOR = "Unknown";
export const STANDARD_MOVES = [-0.05, -0.1, -0.2] as const;

const cents = (value: number) => Math.round(value * 100) / 100;
const ratio = (value: number) => Math.round(value * 10_000) / 10_000;

/** The book as the fit of a new put sees it: cash free, and what is tied up per ticker and sector. */
export interface Book {
  capital: number | null;
  freeCash: number | null;
  tickerLimit: number;
  sectorLimit: number;
  byTicker: Map<string, number>;
  bySector: Map<string, number>;
  sectorOf: (ticker: string) => string;
}

/**
 * The open short puts that still hold cash at `now`: a put past its expiry day's close holds
 * nothing until it is recorded as expired or assigned, as on Trades (docs/decisions/0078).
 */
function putsHoldingCash(legs: readonly OpenLeg[], now: number): OpenLeg[] {
  return legs.filter((leg) => leg.optionType === "put" && now < expiryCloseOf(leg.expiry));
}

/** Short puts past their expiry close and not yet recorded: shown apart, holding no cash. */
function putsAwaitingResolution(legs: readonly OpenLeg[], now: number): OpenLeg[] {
  return legs.filter((leg) => leg.optionType === "put" && now >= expiryCloseOf(leg.expiry));
}

/** Committed collateral, shares at basis, free cash, and the cost per ticker and sector if all were assigned. */
export function bookOf(inputs: Pick<PlanInputs, "settings" | "legs" | "lots" | "sectors" | "now">): Book & {
  committed: number;
  sharesCost: number;
  reserve: number | null;
} {
  const { settings } = inputs;
  const sectorOf = (ticker: string) => inputs.sectors.get(ticker) ?? UNKNOWN_SECTOR;
  const byTicker = new Map<string, number>();
  const bySector = new Map<string, number>();
  const add = (ticker: string, amount: number) => {
    byTicker.set(ticker, (byTicker.get(ticker) ?? 0) + amount);
    const sector = sectorOf(ticker);
    bySector.set(sector, (bySector.get(sector) ?? 0) + amount);
  };
  let committed = 0;
  for (const leg of putsHoldingCash(inputs.legs, inputs.now)) {
    const collateral = leg.strike * CONTRACT_SIZE * leg.contracts;
    committed += collateral;
    add(leg.ticker, collateral);
  }
  let sharesCost = 0;
  for (const lot of inputs.lots) {
    const cost = lot.shares * lot.adjustedBasis;
    sharesCost += cost;
    add(lot.ticker, cost);
  }
  const capital = settings.capital;
  const reserve = capital === null ? null : capital * settings.reserve_share;
  return {
    capital,
    reserve,
    committed,
    sharesCost,
    freeCash: capital === null ? null : capital - reserve! - committed - sharesCost,
    tickerLimit: settings.ticker_limit,
    sectorLimit: settings.sector_limit,
    byTicker,
    bySector,
    sectorOf,
  };
}

/** How a strike sits against the trader's levels: the buy level it is at or below, and its distance to the conservative value. */
function againstLevels(strike: number, levels: ReferenceLevels | undefined) {
  if (!levels) return { buy_level: null, vs_conservative: null };
  return {
    buy_level: buyLevelAtOrAbove(strike, levels),
    vs_conservative: levels.conservative_iv > 0 ? ratio(strike / levels.conservative_iv - 1) : null,
  };
}

/** One scenario: each open put at spot × (1 + move) on its expiry, grouped by expiry, soonest first. */
export function scenarioOf(
  legs: readonly OpenLeg[],
  spots: ReadonlyMap<string, number>,
  move: number,
  custom = false,
): Scenario {
  const byExpiry = new Map<string, Scenario["expiries"][number]>();
  for (const leg of legs) {
    if (leg.optionType !== "put") continue;
    const spot = spots.get(leg.ticker) || null;
    const price = spot === null ? null : spot * (1 + move);
    const itm = price !== null && price < leg.strike;
    const shares = CONTRACT_SIZE * leg.contracts;
    const put = {
      ticker: leg.ticker,
      strike: leg.strike,
      contracts: leg.contracts,
      spot,
      price_at_expiry: price === null ? null : cents(price),
      in_the_money: itm,
      cash_needed: itm ? cents(leg.strike * shares) : 0,
      loss_at_price: itm ? cents((leg.strike - price!) * shares) : 0,
      premium_kept: cents(leg.premium),
    };
    const group = byExpiry.get(leg.expiry) ?? {
      expiry: leg.expiry,
      puts: [],
      cash_needed: 0,
      loss_at_price: 0,
      premium_kept: 0,
    };
    group.puts.push(put);
    group.cash_needed = cents(group.cash_needed + put.cash_needed);
    group.loss_at_price = cents(group.loss_at_price + put.loss_at_price);
    group.premium_kept = cents(group.premium_kept + put.premium_kept);
    byExpiry.set(leg.expiry, group);
  }
  const expiries = [...byExpiry.values()].sort((a, b) => a.expiry.localeCompare(b.expiry));
  for (const e of expiries) e.puts.sort((a, b) => a.ticker.localeCompare(b.ticker) || b.strike - a.strike);
  const sum = (key: "cash_needed" | "loss_at_price" | "premium_kept") =>
    cents(expiries.reduce((total, e) => total + e[key], 0));
  const premium = sum("premium_kept");
  const loss = sum("loss_at_price");
  return {
    move,
    custom,
    expiries,
    cash_needed: sum("cash_needed"),
    loss_at_price: loss,
    premium_kept: premium,
    net: cents(premium - loss),
  };
}

/** The Plan screen's figures. */
export function buildPlan(inputs: PlanInputs): Plan {
  const book = bookOf(inputs);
  const { capital } = book;
  const shareOf = (amount: number) => (capital === null ? null : ratio(amount / capital));
  const holding = putsHoldingCash(inputs.legs, inputs.now);
  const puts = holding
    .map((leg) => ({
      ticker: leg.ticker,
      strike: leg.strike,
      expiry: leg.expiry,
      contracts: leg.contracts,
      collateral: cents(leg.strike * CONTRACT_SIZE * leg.contracts),
      premium_kept: cents(leg.premium),
      ...againstLevels(leg.strike, inputs.levels.get(leg.ticker)),
    }))
    .sort((a, b) => a.ticker.localeCompare(b.ticker) || a.expiry.localeCompare(b.expiry) || b.strike - a.strike);

  const lotOf = new Map(inputs.lots.map((lot) => [lot.ticker, lot]));
  const exposures: PlanExposure[] = [...book.byTicker]
    .map(([ticker, cost]) => {
      const held = lotOf.get(ticker);
      const own = puts.filter((p) => p.ticker === ticker);
      const sharesHeld = held?.shares ?? 0;
      const shares = sharesHeld + own.reduce((n, p) => n + p.contracts * CONTRACT_SIZE, 0);
      // Held shares' adjusted basis already takes off the open cycle's premiums, these puts' included.
      const premium = held ? 0 : own.reduce((total, p) => total + p.premium_kept, 0);
      const share = shareOf(cost);
      const conservative = inputs.levels.get(ticker)?.conservative_iv;
      return {
        ticker,
        sector: book.sectorOf(ticker),
        shares_held: sharesHeld,
        shares_if_assigned: shares,
        cost_if_assigned: cents(cost),
        basis_if_assigned: shares > 0 ? cents((cost - premium) / shares) : 0,
        share_of_capital: share,
        over_limit: share !== null && share > book.tickerLimit + 1e-9,
        conservative_value: conservative && conservative > 0 ? conservative : null,
        puts: own,
      };
    })
    .sort((a, b) => b.cost_if_assigned - a.cost_if_assigned || a.ticker.localeCompare(b.ticker));
  const sectors = [...book.bySector]
    .map(([sector, cost]) => {
      const share = shareOf(cost);
      return {
        sector,
        cost_if_assigned: cents(cost),
        share_of_capital: share,
        over_limit: share !== null && share > book.sectorLimit + 1e-9,
      };
    })
    .sort((a, b) => b.cost_if_assigned - a.cost_if_assigned || a.sector.localeCompare(b.sector));

  // A put past its expiry has no move left to test: its outcome is a fact to record.
  const scenarios = inputs.moves.map((move) => scenarioOf(holding, inputs.spots, move));
  if (inputs.custom !== undefined) scenarios.push(scenarioOf(holding, inputs.spots, inputs.custom, true));
  const awaiting = putsAwaitingResolution(inputs.legs, inputs.now)
    .map((leg) => ({
      ticker: leg.ticker,
      strike: leg.strike,
      expiry: leg.expiry,
      contracts: leg.contracts,
      premium_kept: cents(leg.premium),
    }))
    .sort((a, b) => a.expiry.localeCompare(b.expiry) || a.ticker.localeCompare(b.ticker) || b.strike - a.strike);

  return {
    as_of: new Date(inputs.now).toISOString(),
    settings: inputs.settings,
    committed: cents(book.committed),
    shares_cost: cents(book.sharesCost),
    holdings: inputs.lots.map((lot) => ({
      ticker: lot.ticker,
      shares: lot.shares,
      adjusted_basis: cents(lot.adjustedBasis),
    })),
    reserve: book.reserve === null ? null : cents(book.reserve),
    free_cash: book.freeCash === null ? null : cents(book.freeCash),
    puts,
    awaiting_resolution: awaiting,
    exposures,
    sectors,
    scenarios,
  };
}

/**
 * How many contracts of a put at `strike` the book allows: by free cash, by the ticker's limit and
 * by the sector's (each room ÷ strike × 100, rounded down, never below 0); the least of them.
 * Without capital nothing can be said, so it answers null.
 */
export function fitOf(book: Book, put: { id: number; ticker: string; strike: number }): PutFit | null {
  if (book.capital === null || book.freeCash === null) return null;
  const per = put.strike * CONTRACT_SIZE;
  const sector = book.sectorOf(put.ticker);
  const tickerNow = book.byTicker.get(put.ticker) ?? 0;
  const sectorNow = book.bySector.get(sector) ?? 0;
  // A hair of tolerance so a room of exactly one contract is not lost to binary noise.
  const count = (room: number) => (per > 0 ? Math.max(0, Math.floor(room / per + 1e-9)) : 0);
  const byCash = count(book.freeCash);
  const byTicker = count(book.capital * book.tickerLimit - tickerNow);
  const bySector = count(book.capital * book.sectorLimit - sectorNow);
  const allowed = Math.min(byCash, byTicker, bySector);
  return {
    id: put.id,
    ticker: put.ticker,
    sector,
    collateral_per_contract: cents(per),
    contracts_allowed: allowed,
    by_cash: byCash,
    by_ticker: byTicker,
    by_sector: bySector,
    fits: allowed >= 1,
    ticker_share: ratio((tickerNow + per) / book.capital),
    sector_share: ratio((sectorNow + per) / book.capital),
  };
}

/** Takes `contracts` of a put into the book (the best-puts list's running state). */
function take(book: Book, ticker: string, cash: number): void {
  book.freeCash = (book.freeCash ?? 0) - cash;
  book.byTicker.set(ticker, (book.byTicker.get(ticker) ?? 0) + cash);
  const sector = book.sectorOf(ticker);
  book.bySector.set(sector, (book.bySector.get(sector) ?? 0) + cash);
}

/**
 * The best puts across the plan: candidates in score order (best first), one contract each and at
 * most one per ticker, each taken only when it still fits the book with the ones taken before it;
 * so the running total of cash never exceeds the free cash. Linear in the candidates.
 */
export function bestPutsOf<T extends { id: number; ticker: string; strike: number; score: number }>(
  start: Book,
  candidates: readonly T[],
  limit: number,
): { candidate: T; fit: PutFit; cash: number; runningTotal: number }[] {
  if (start.capital === null) return [];
  const book: Book = { ...start, byTicker: new Map(start.byTicker), bySector: new Map(start.bySector) };
  const ordered = [...candidates].sort((a, b) => b.score - a.score || a.id - b.id);
  const picks: { candidate: T; fit: PutFit; cash: number; runningTotal: number }[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const candidate of ordered) {
    if (picks.length >= limit) break;
    if (seen.has(candidate.ticker)) continue;
    const fit = fitOf(book, candidate);
    if (!fit?.fits) continue;
    seen.add(candidate.ticker);
    const cash = fit.collateral_per_contract;
    total = cents(total + cash);
    picks.push({ candidate, fit, cash, runningTotal: total });
    take(book, candidate.ticker, cash);
  }
  return picks;
}
