import type { BrokerPosition } from "#contract/broker-positions.ts";
import type { CashCover, Difference, Fix, Reconciliation } from "#contract/reconcile.ts";
import { isPastExpiry } from "#provider/journal/expiry.ts";
import { CONTRACT_SIZE, replay, type WheelTrade } from "#provider/journal/wheel.ts";

/**
 * The journal's book against a broker's (issue 43, docs/decisions/0094-reconciling-the-journal-with-the-broker.md):
 * both as positions keyed by ticker + shares, or ticker + type + strike + expiry, and every
 * difference with the fix it offers. Pure and linear in the two books (a sort aside).
 */

type Holding = Difference["journal"] & {};
type Position = Omit<Difference, "issue" | "fix" | "journal" | "broker">;
type BookPosition = Position & { holding: Holding };

/** The matching key; the same spelling as an import's opening positions (ADR 0074). */
function positionKey(p: {
  ticker: string;
  kind: "shares" | "option";
  option_type: string | null;
  strike: number | null;
  expiry: string | null;
}): string {
  return p.kind === "shares" ? `${p.ticker}|shares` : `${p.ticker}|${p.option_type}|${p.strike}|${p.expiry}`;
}

/** A cent a share: a basis further apart than this is a difference (rounding of fees stays below it). */
const BASIS_TOLERANCE = 0.01;
/** Shares may be fractional; quantities closer than this are the same. */
const SAME = 1e-6;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
const cents = (value: number) => Math.round(value * 100) / 100;

/**
 * The journal's open positions at `asOf`: its trades up to that moment replayed (a later trade is
 * not what the broker's snapshot saw). Short options carry their net premium a share as basis.
 */
export function journalBook(trades: readonly WheelTrade[], asOf: number): BookPosition[] {
  const result = replay(
    trades.filter((t) => t.tradedAt <= asOf),
    asOf,
  );
  // Stored trades replayed when they were stored; a clock set back is the only way here.
  if (!result.ok) throw new Error(`The journal does not add up: ${result.refusal.reason}`);
  const { legs, lots } = result.wheel;
  const shares: BookPosition[] = lots.map((lot) => {
    const fields = { ticker: lot.ticker, kind: "shares" as const, option_type: null, strike: null, expiry: null };
    return {
      key: positionKey(fields),
      ...fields,
      holding: { quantity: lot.shares, cost_basis: round4(lot.cost / lot.shares), awaiting_resolution: false },
    };
  });
  const options: BookPosition[] = legs.map((leg) => {
    const fields = {
      ticker: leg.ticker,
      kind: "option" as const,
      option_type: leg.optionType,
      strike: leg.strike,
      expiry: leg.expiry,
    };
    return {
      key: positionKey(fields),
      ...fields,
      holding: {
        quantity: -leg.contracts,
        cost_basis: round4(leg.premium / (leg.contracts * CONTRACT_SIZE)),
        awaiting_resolution: isPastExpiry(leg.expiry, asOf),
      },
    };
  });
  return [...shares, ...options];
}

/** A snapshot's positions by key: lots of one position (a broker may list them apart) summed. */
export function brokerBook(positions: readonly BrokerPosition[], asOf: number): BookPosition[] {
  const byKey = new Map<string, { position: BrokerPosition; quantity: number; cost: number | null }>();
  for (const p of positions) {
    const key = positionKey(p);
    const seen = byKey.get(key) ?? { position: p, quantity: 0, cost: 0 };
    seen.quantity += p.quantity;
    seen.cost = seen.cost === null || p.cost_basis === null ? null : seen.cost + Math.abs(p.quantity) * p.cost_basis;
    byKey.set(key, seen);
  }
  const book: BookPosition[] = [];
  for (const [key, { position: p, quantity, cost }] of byKey) {
    if (Math.abs(quantity) < SAME) continue;
    book.push({
      key,
      ticker: p.ticker,
      kind: p.kind,
      option_type: p.option_type,
      strike: p.strike,
      expiry: p.expiry,
      holding: {
        quantity,
        cost_basis: cost === null ? null : round4(cost / Math.abs(quantity)),
        awaiting_resolution: p.kind === "option" && isPastExpiry(p.expiry!, asOf),
      },
    });
  }
  return book;
}

/** A wheel journal holds long shares and short options; a long option or short shares it cannot. */
const wheelShaped = (p: BookPosition) => (p.kind === "shares" ? p.holding.quantity > 0 : p.holding.quantity < 0);

/** Shares first, then options by ticker, type, expiry and strike: the order the screen lists them. */
function order(a: Position, b: Position): number {
  const rank = (p: Position) => (p.kind === "shares" ? 0 : p.option_type === "put" ? 1 : 2);
  return (
    rank(a) - rank(b) ||
    a.ticker.localeCompare(b.ticker) ||
    (a.expiry ?? "").localeCompare(b.expiry ?? "") ||
    (a.strike ?? 0) - (b.strike ?? 0)
  );
}

const opening = (p: Position, quantity: number, price: number | null): Fix => ({
  action: "add",
  trade_kind: p.kind === "shares" ? "stock_buy" : "sell_to_open",
  quantity: round4(quantity),
  price,
});

/** What takes `quantity` off the journal: an expiry once the option is past its close, else a buy-back or sale. */
const closing = (p: Position, quantity: number, awaiting: boolean): Fix =>
  p.kind === "option" && awaiting
    ? { action: "expire", trade_kind: "expire", quantity: round4(quantity), price: 0 }
    : {
        action: "close",
        trade_kind: p.kind === "shares" ? "stock_sell" : "buy_to_close",
        quantity: round4(quantity),
        price: null,
      };

/**
 * Every difference between the two books at one moment. A position both books still show past its
 * expiry is no difference (ADR 0078: the journal awaits its resolution, the broker has not booked
 * it yet); one only the broker shows past expiry is the broker's lag, not a missing trade.
 */
export function reconcile(journal: readonly BookPosition[], broker: readonly BookPosition[]): Difference[] {
  const ours = new Map(journal.map((p) => [p.key, p]));
  const theirs = new Map(broker.map((p) => [p.key, p]));
  const keys = [...new Set([...ours.keys(), ...theirs.keys()])];
  const differences: Difference[] = [];
  for (const key of keys) {
    const j = ours.get(key);
    const b = theirs.get(key);
    const position: Position = withoutHolding((j ?? b)!);
    const jh = j?.holding ?? null;
    let bh = b?.holding ?? null;
    if (b && !wheelShaped(b)) {
      differences.push({ ...position, issue: "unsupported", journal: null, broker: b.holding, fix: null });
      bh = null;
    }
    if (jh && !bh) {
      const fix = closing(position, Math.abs(jh.quantity), jh.awaiting_resolution);
      differences.push({ ...position, issue: "stale", journal: jh, broker: null, fix });
    } else if (!jh && bh) {
      if (bh.awaiting_resolution) continue;
      const fix = opening(position, Math.abs(bh.quantity), bh.cost_basis);
      differences.push({ ...position, issue: "missing", journal: null, broker: bh, fix });
    } else if (jh && bh) {
      const ownQuantity = Math.abs(jh.quantity);
      const theirQuantity = Math.abs(bh.quantity);
      if (Math.abs(ownQuantity - theirQuantity) > SAME) {
        const fix =
          theirQuantity > ownQuantity
            ? opening(position, theirQuantity - ownQuantity, extraPrice(jh, bh))
            : closing(position, ownQuantity - theirQuantity, jh.awaiting_resolution);
        differences.push({ ...position, issue: "quantity", journal: jh, broker: bh, fix });
      } else if (
        jh.cost_basis !== null &&
        bh.cost_basis !== null &&
        Math.abs(jh.cost_basis - bh.cost_basis) > BASIS_TOLERANCE + 1e-9
      ) {
        differences.push({ ...position, issue: "basis", journal: jh, broker: bh, fix: null });
      }
    }
  }
  return differences.sort(order);
}

/**
 * The price a share of what the broker holds beyond the journal: what the broker's whole position
 * cost less what the journal's part cost. Null (the trader gives it) when either basis is unknown
 * or the two do not leave a price of at least 0.
 */
function extraPrice(jh: Holding, bh: Holding): number | null {
  if (jh.cost_basis === null || bh.cost_basis === null) return null;
  const extra = Math.abs(bh.quantity) - Math.abs(jh.quantity);
  const price = (Math.abs(bh.quantity) * bh.cost_basis - Math.abs(jh.quantity) * jh.cost_basis) / extra;
  return price >= 0 ? round4(price) : null;
}

function withoutHolding(p: BookPosition): Position {
  const { holding: _holding, ...position } = p;
  return position;
}

type Totals = Reconciliation["totals"]["journal"];

/** A book's sums: shares and their cost, short contracts, and the collateral of the puts still live. */
export function totalsOf(book: readonly BookPosition[]): Totals {
  const totals: Totals = { shares: 0, shares_cost: 0, short_puts: 0, short_calls: 0, put_collateral: 0 };
  for (const { kind, option_type, strike, holding } of book) {
    if (!wheelShaped({ kind, holding } as BookPosition)) continue;
    if (kind === "shares") {
      totals.shares += holding.quantity;
      totals.shares_cost =
        totals.shares_cost === null || holding.cost_basis === null
          ? null
          : totals.shares_cost + holding.quantity * holding.cost_basis;
    } else if (option_type === "put") {
      totals.short_puts += -holding.quantity;
      // Past expiry it commits nothing more (ADR 0078), as the Trades screen shows it.
      if (!holding.awaiting_resolution) totals.put_collateral += strike! * CONTRACT_SIZE * -holding.quantity;
    } else totals.short_calls += -holding.quantity;
  }
  return {
    ...totals,
    shares: round4(totals.shares),
    shares_cost: totals.shares_cost === null ? null : cents(totals.shares_cost),
    put_collateral: cents(totals.put_collateral),
  };
}

/**
 * Whether the broker's cash covers the collateral the journal's short puts commit (ADR 0098): the
 * shortfall in cents, 0 when covered, null when the broker did not state its cash.
 */
export function cashCover(committed: number, brokerCash: number | null): CashCover {
  return {
    committed: cents(committed),
    broker: brokerCash === null ? null : cents(brokerCash),
    short: brokerCash === null ? null : cents(Math.max(0, committed - brokerCash)),
  };
}

/** Both books position by position, in the screen's order. */
export function sideBySide(
  journal: readonly BookPosition[],
  broker: readonly BookPosition[],
): Reconciliation["positions"] {
  const rows = new Map<string, Reconciliation["positions"][number]>();
  for (const p of journal) rows.set(p.key, { ...withoutHolding(p), journal: p.holding, broker: null });
  for (const p of broker) {
    const row = rows.get(p.key);
    if (row) row.broker = p.holding;
    else rows.set(p.key, { ...withoutHolding(p), journal: null, broker: p.holding });
  }
  return [...rows.values()].sort(order);
}
