import { z } from "zod";
import { DateOnly, Ticker } from "./entities.ts";
import { Timestamp } from "./timestamp.ts";
import { QUANTITY_MAX, STRIKE_MAX, STRIKE_MIN } from "./trade-bounds.ts";

/**
 * What a broker says the trader holds, as of a moment: the other side of the reconciliation
 * (issue 43). Written by a broker sync (Tradier's positions) or an import whose file lists the
 * account's open positions (IBKR's "Open Positions", OFX's INVPOSLIST); one snapshot a source,
 * the latest replacing the one before.
 */
export const BROKER_SNAPSHOT_SOURCES = ["tradier", "ibkr", "tastytrade", "schwab", "ofx"] as const;
export const BrokerSnapshotSource = z.enum(BROKER_SNAPSHOT_SOURCES);
export type BrokerSnapshotSource = z.infer<typeof BrokerSnapshotSource>;

/** At most this many positions a snapshot: far above any retail account, a bound on the work a file can ask. */
export const BROKER_POSITIONS_MAX = 2000;

export const BrokerPosition = z
  .object({
    ticker: Ticker,
    kind: z.enum(["shares", "option"]),
    option_type: z.enum(["put", "call"]).nullable(),
    strike: z.number().min(STRIKE_MIN).max(STRIKE_MAX).nullable(),
    expiry: DateOnly.nullable(),
    /** Shares, or contracts; negative when short (a sold put is -1). */
    quantity: z
      .number()
      .refine((q) => q !== 0, "A position of 0 is no position")
      .refine((q) => Math.abs(q) <= QUANTITY_MAX, "Quantity must be at most 100,000"),
    /** Dollars a share paid, or premium a share received; null when the broker does not say. */
    cost_basis: z.number().min(0).max(STRIKE_MAX).nullable(),
  })
  .superRefine((p, ctx) => {
    const option = p.kind === "option";
    if (option && (p.option_type === null || p.strike === null || p.expiry === null)) {
      ctx.addIssue({ code: "custom", message: "An option position needs put or call, a strike and an expiry" });
    }
    if (!option && (p.option_type !== null || p.strike !== null || p.expiry !== null)) {
      ctx.addIssue({ code: "custom", message: "A share position has no put/call, strike or expiry" });
    }
    if (option && !Number.isInteger(p.quantity)) {
      ctx.addIssue({ code: "custom", path: ["quantity"], message: "Contracts must be a whole number" });
    }
  });
export type BrokerPosition = z.infer<typeof BrokerPosition>;

/** Far above a retail account's cash: a bound the database keeps too. */
export const CASH_MAX = 1_000_000_000;
/** Cash a broker states: negative is a debit (borrowed on margin). */
export const BrokerCash = z
  .number({ error: "Cash must be a number" })
  .min(-CASH_MAX, "Cash must be at least -1,000,000,000")
  .max(CASH_MAX, "Cash must be at most 1,000,000,000");

export const BrokerSnapshot = z.object({
  source: BrokerSnapshotSource,
  /** When the broker's figures were true (the statement's date, the sync's moment). */
  as_of: Timestamp,
  positions: z.array(BrokerPosition).max(BROKER_POSITIONS_MAX),
  /**
   * The account's cash in dollars as the broker states it (OFX AVAILCASH, IBKR's ending cash, Tradier's
   * total_cash, Schwab's "Cash & Cash Investments"); null when the source does not say
   * (docs/decisions/0098-positions-files-and-broker-cash.md).
   */
  cash: BrokerCash.nullable().default(null),
});
export type BrokerSnapshot = z.infer<typeof BrokerSnapshot>;
/** A snapshot as a writer gives it: `cash` may be left out when the source does not say. */
export type BrokerSnapshotInput = z.input<typeof BrokerSnapshot>;
