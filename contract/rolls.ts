import { z } from "zod";
import { DateOnly, Id, Timestamp } from "./entities.ts";

/**
 * Roll candidates of an open short option (GET /api/positions/:tradeId/roll-candidates): a put at the
 * same or a lower strike, a covered call at the same or a higher one, at a later expiry, for a net
 * credit (docs/product.md#screens-roll-candidates, docs/decisions/0036-roll-candidates-ranked-by-breakeven.md,
 * docs/decisions/0103-covered-call-rolls-ranked-by-the-called-away-gain.md). Money per share unless named.
 */

/** Later expiries listed up to this many calendar days from today are considered. */
export const ROLL_MAX_DAYS = 90;
/** A put is "tested" when the stock is at or below its strike × (1 + this). */
export const TESTED_DISTANCE = 0.03;

export const RollCandidate = z.object({
  expiry: DateOnly,
  strike: z.number(),
  occ_symbol: z.string(),
  /** The new option's bid: what selling it brings. */
  bid: z.number(),
  ask: z.number(),
  /** Calendar days from today to the new expiry. */
  days_to_expiry: z.number().int(),
  /** Calendar days the new expiry adds to the position. */
  extra_days: z.number().int(),
  /** New bid − current ask − two commissions ÷ 100 (buy to close and sell to open), per share. */
  net_credit: z.number(),
  /** net_credit × 100: one contract. */
  net_credit_per_contract: z.number(),
  /** net_credit × 100 × contracts: the whole position. */
  net_credit_total: z.number(),
  /** A put's: new strike − (premium collected over the position's life + net_credit), per share; null for a call. */
  new_breakeven: z.number().nullable(),
  /**
   * A covered call's: new strike + net_credit − the shares' adjusted basis, per share: what each share
   * gains, every premium of the cycle included, if called away at the new strike; null for a put.
   */
  gain_if_called_away: z.number().nullable(),
  /** net_credit_per_contract ÷ extra_days, dollars per contract per day. */
  credit_per_extra_day: z.number(),
  /** |delta| of the new option; null when no volatility fits its quote. */
  abs_delta: z.number().nullable(),
  /**
   * Risk-neutral chance of assignment: the stock ends below a put's new strike, N(−d2), or above a
   * call's, N(d2) (called away); null when no volatility fits.
   */
  assignment_probability: z.number().nullable(),
  /** An earnings report falls between today and the new expiry. */
  earnings_before_expiry: z.boolean(),
  /** 1 = best: a put's lowest new breakeven or a call's highest gain if called away, then highest credit per extra day. */
  rank: z.number().int().min(1),
});
export type RollCandidate = z.infer<typeof RollCandidate>;

export const RollCandidates = z.object({
  as_of: Timestamp,
  ticker: z.string(),
  spot: z.number(),
  /** The open option being rolled. */
  position: z.object({
    trade_id: Id,
    option_type: z.enum(["put", "call"]),
    strike: z.number(),
    expiry: DateOnly,
    occ_symbol: z.string(),
    contracts: z.number().int(),
    /** Premium received over the position's life (every roll before included), net of fees and buy-backs, per share. */
    premium_collected: z.number(),
    /** The open option's ask now: the buy-to-close price. */
    close_ask: z.number(),
    /** A covered call's shares: the journal's adjusted basis a share; null for a put. */
    adjusted_cost_basis: z.number().nullable(),
    /** Stock at or below strike × (1 + TESTED_DISTANCE). */
    tested: z.boolean(),
    /** The option's mark (mid) above the premium received for it. */
    losing: z.boolean(),
  }),
  /** The trader's commission per contract, in dollars (their recommendation filters). */
  commission: z.number(),
  /** Buying the whole position back now: ask × 100 × contracts + commission × contracts. */
  closing_cost: z.number(),
  max_days: z.number().int(),
  earnings_date: DateOnly.nullable(),
  /** Ranked, best first; empty when no roll gives a net credit. */
  candidates: z.array(RollCandidate),
});
export type RollCandidates = z.infer<typeof RollCandidates>;

export const RollCandidatesParams = z.object({ tradeId: z.coerce.number().pipe(Id) });
