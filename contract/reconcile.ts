import { z } from "zod";
import { BrokerSnapshotSource } from "./broker-positions.ts";
import { DateOnly } from "./entities.ts";
import { Timestamp } from "./timestamp.ts";
import { PRICE_MAX } from "./trade-bounds.ts";

/**
 * The reconciliation (issue 43, docs/decisions/0094-reconciling-the-journal-with-the-broker.md): the
 * journal's open positions beside a broker snapshot's, and every difference with the fix it offers.
 */

/** One side's holding of a position: signed quantity (short options negative) and cost a share. */
const Holding = z.object({
  quantity: z.number(),
  /**
   * Shares: dollars paid a share, buying fees included. Short options: premium received a share, net
   * of the opening fees. Null when the broker does not say.
   */
  cost_basis: z.number().nullable(),
  /** An option past its expiry day's close that nothing has closed yet (ADR 0078). */
  awaiting_resolution: z.boolean(),
});

/** `KO|shares` or `KO|put|50|2026-01-30`: what the two books are matched by. */
const PositionKey = z.string().min(1).max(100);

const PositionFields = {
  key: PositionKey,
  ticker: z.string(),
  kind: z.enum(["shares", "option"]),
  option_type: z.enum(["put", "call"]).nullable(),
  strike: z.number().nullable(),
  expiry: DateOnly.nullable(),
};

export const FIX_ACTIONS = ["add", "close", "expire"] as const;
const FixAction = z.enum(FIX_ACTIONS);

/** What a fix records: the trade kind, how many, and its price a share (null: the trader gives it). */
const Fix = z.object({
  action: FixAction,
  trade_kind: z.enum(["stock_buy", "stock_sell", "sell_to_open", "buy_to_close", "expire"]),
  quantity: z.number().positive(),
  price: z.number().nullable(),
});
export type Fix = z.infer<typeof Fix>;

const DIFFERENCE_ISSUES = ["missing", "stale", "quantity", "basis", "unsupported"] as const;

export const Difference = z.object({
  ...PositionFields,
  /**
   * missing: the broker holds it, the journal not; stale: the journal holds it, the broker not;
   * quantity: both, in different amounts; basis: same amount, cost a share more than a cent apart;
   * unsupported: the broker holds what a wheel journal cannot (a long option, short shares).
   */
  issue: z.enum(DIFFERENCE_ISSUES),
  journal: Holding.nullable(),
  broker: Holding.nullable(),
  /** Null when there is nothing the journal can record (a basis difference, an unsupported position). */
  fix: Fix.nullable(),
});
export type Difference = z.infer<typeof Difference>;

/** What a book holds in sum: shares, short contracts and the cash the short puts commit. */
const BookTotals = z.object({
  shares: z.number(),
  /** Shares × cost a share; null when the broker does not give a cost for some of them. */
  shares_cost: z.number().nullable(),
  short_puts: z.number(),
  short_calls: z.number(),
  /** Cash-secured puts' collateral: strike × 100 × contracts (the Plan's committed cash, ADR 0081). */
  put_collateral: z.number(),
});

export const CashCover = z.object({
  /** The journal's live short puts' collateral: strike × 100 × contracts, summed (the Plan's committed cash). */
  committed: z.number(),
  /** The account's cash the snapshot states; null when the broker did not say. */
  broker: z.number().nullable(),
  /** How far the cash falls short of the collateral: 0 when it covers it, null when the cash is unknown. */
  short: z.number().nullable(),
});
export type CashCover = z.infer<typeof CashCover>;

export const Reconciliation = z.object({
  /** The snapshot compared; null when no broker has told us the trader's positions yet. */
  snapshot: z.object({ source: BrokerSnapshotSource, as_of: Timestamp }).nullable(),
  /** Every snapshot the trader has, most recent first, to compare another. */
  sources: z.array(z.object({ source: BrokerSnapshotSource, as_of: Timestamp })),
  /** Both books, position by position: a side is null where it holds nothing. */
  positions: z.array(z.object({ ...PositionFields, journal: Holding.nullable(), broker: Holding.nullable() })),
  totals: z.object({ journal: BookTotals, broker: BookTotals }),
  /**
   * The journal's cash-secured puts against the broker's cash at the snapshot's moment
   * (docs/decisions/0098-positions-files-and-broker-cash.md).
   */
  cash: CashCover,
  differences: z.array(Difference),
});
export type Reconciliation = z.infer<typeof Reconciliation>;

export const ReconciliationQuery = z.object({ source: BrokerSnapshotSource.optional() });

/**
 * A tap on a difference's fix: what the page showed (snapshot, key, action, quantity), checked again
 * on the server, so a page that no longer shows the state changes nothing (409).
 */
export const ReconcileFixBody = z.object({
  source: BrokerSnapshotSource,
  as_of: Timestamp,
  key: PositionKey,
  action: FixAction,
  quantity: z.number().positive().max(100_000),
  /** A share's price, for a fix whose price the broker does not give (a close, a basis-less add). */
  price: z
    .number({ error: "Price must be a number" })
    .min(0, "Price must be at least 0")
    .max(PRICE_MAX, "Price must be at most 9,999,999")
    .optional(),
});
export type ReconcileFixBody = z.infer<typeof ReconcileFixBody>;
