/**
 * The covered-call screen's call (GET /api/covered-calls) and the trader's call filters
 * (docs/product.md#screens-covered-calls, docs/decisions/0079-covered-call-ranking-and-figures.md).
 * Money per share unless named; fractions where a percentage.
 */
import { z } from "zod";
import { DateOnly, Timestamp } from "./entities.ts";
import { FILTER_LABELS } from "./filter-labels.ts";
import { filterNumber } from "./trader-filters.ts";

/** A trader's covered-call filters (defaults in call-filter-labels.ts). */
export const CallFilters = z
  .object({
    at_or_above_basis: z.boolean(),
    at_or_above_base_value: z.boolean(),
    delta_min: filterNumber("delta_min"),
    delta_max: filterNumber("delta_max"),
    dte_min: filterNumber("dte_min"),
    dte_max: filterNumber("dte_max"),
    min_bid: filterNumber("min_bid"),
    min_open_interest: filterNumber("min_open_interest"),
    max_spread: filterNumber("max_spread"),
    skip_earnings: z.boolean(),
  })
  .refine((f) => f.delta_min <= f.delta_max, {
    message: `'${FILTER_LABELS.delta_min}' must not be above '${FILTER_LABELS.delta_max}'.`,
    path: ["delta_min"],
  })
  .refine((f) => f.dte_min <= f.dte_max, {
    message: `'${FILTER_LABELS.dte_min}' must not be above '${FILTER_LABELS.dte_max}'.`,
    path: ["dte_min"],
  });
export type CallFilters = z.infer<typeof CallFilters>;

/** A view's call filters in the query, as the GET form sends them; any left out are the saved ones. */
const Bit = z.enum(["1", "0"]).transform((v) => v === "1");
const queryNumber = (field: keyof typeof FILTER_LABELS) =>
  z.coerce.number({ error: `'${FILTER_LABELS[field]}' must be a number.` }).optional();
export const CallFilterQuery = z.object({
  at_or_above_basis: Bit.optional(),
  at_or_above_base_value: Bit.optional(),
  delta_min: queryNumber("delta_min"),
  delta_max: queryNumber("delta_max"),
  dte_min: queryNumber("dte_min"),
  dte_max: queryNumber("dte_max"),
  min_bid: queryNumber("min_bid"),
  min_open_interest: queryNumber("min_open_interest"),
  max_spread: queryNumber("max_spread"),
  skip_earnings: Bit.optional(),
});
export type CallFilterQuery = z.infer<typeof CallFilterQuery>;

/** One call the trader can sell against shares held, with what a covered-call seller checks. */
export const CoveredCall = z.object({
  occ_symbol: z.string(),
  expiry: DateOnly,
  strike: z.number(),
  /** What a sell order fills at. */
  bid: z.number(),
  ask: z.number(),
  mid: z.number(),
  days_to_expiry: z.number().int(),
  open_interest: z.number().int(),
  /** (ask − bid) / mid. */
  spread: z.number(),
  /** max(0, spot − strike): the part of an in-the-money call's bid that is the shares' own value. */
  intrinsic_value: z.number(),
  /** max(0, bid − intrinsic value). */
  time_value: z.number(),
  /** If the stock ends where it is: (time value at the bid − commission ÷ 100) ÷ spot, for the days to expiry. */
  return_if_unchanged: z.number(),
  return_if_unchanged_monthly: z.number(),
  return_if_unchanged_annualised: z.number(),
  /** Called away: (bid + strike − adjusted basis − commission ÷ 100) ÷ adjusted basis; null without a positive basis. */
  return_if_called: z.number().nullable(),
  return_if_called_monthly: z.number().nullable(),
  return_if_called_annualised: z.number().nullable(),
  /** Risk-neutral chance of ending above the strike, N(d2); null when no volatility fits the quote. */
  chance_called: z.number().nullable(),
  /** The call's delta (0 to 1); null when no volatility fits the quote. */
  delta: z.number().nullable(),
  /** Adjusted basis − (bid − commission ÷ 100): where the shares and this call, held to expiry, make nothing. */
  breakeven: z.number(),
  /** The next ex-dividend date falls on or before the expiry. */
  ex_dividend_before_expiry: z.boolean(),
  /** In the money with time value at the mid below the dividend, ex-date before expiry: the holder may exercise the day before (ADR 0077's call rule). */
  early_assignment_risk: z.boolean(),
  earnings_before_expiry: z.boolean(),
  /** 1 = the best call of the holding for this trader. */
  rank: z.number().int().min(1),
});
export type CoveredCall = z.infer<typeof CoveredCall>;

export const HoldingCalls = z.object({
  ticker: z.string(),
  shares: z.number().int(),
  average_cost: z.number(),
  /** The journal's adjusted cost basis per share: strike − the cycle's net premiums (docs/decisions/0024). */
  adjusted_basis: z.number(),
  /** The trader's base value of the stock (their watchlist row, else the UIP row); null when none is set. */
  base_value: z.number().nullable(),
  open_call_contracts: z.number().int(),
  /** floor(shares ÷ 100) − open call contracts: how many calls the shares still cover. */
  contracts_available: z.number().int(),
  spot: z.number().nullable(),
  as_of: Timestamp.nullable(),
  ex_dividend: z.object({ date: DateOnly, amount: z.number() }).nullable(),
  earnings_date: DateOnly.nullable(),
  /** Soonest expiry first, best first within it. */
  calls: z.array(CoveredCall),
  /** When the strike floor (basis or base value) left nothing: the nearest call below it that passes the rest. */
  nearest: CoveredCall.nullable(),
  /** The market could not be read for this holding (its calls are then empty). */
  error: z.string().nullable(),
});
export type HoldingCalls = z.infer<typeof HoldingCalls>;

export const CoveredCalls = z.object({
  as_of: Timestamp,
  /** Dollars per contract, from the trader's put filters (one commission a trader pays). */
  commission: z.number(),
  filters: CallFilters,
  holdings: z.array(HoldingCalls),
});
export type CoveredCalls = z.infer<typeof CoveredCalls>;
