import { z } from "zod";
import { DateOnly, Timestamp } from "./entities.ts";

/**
 * The track record of recommended puts (GET /api/track-record) and the landing page's measured
 * figures (GET /api/landing-stats). Fractions where a percentage; money per share unless named.
 */

const Fraction = z.number().min(0).max(1);

/** Figures of a set of scored picks. */
export const TrackRecordGroup = z.object({
  count: z.number().int().min(0),
  expired_worthless: z.number().int().min(0),
  assigned: z.number().int().min(0),
  /** Picks whose P&L was above 0: the close above the breakeven. */
  profitable: z.number().int().min(0),
  /** Mean chance of profit the engine showed (risk-neutral, at the premium it quoted). */
  mean_predicted: Fraction,
  observed_profit_rate: Fraction,
  /** Mean premium / strike: the return on the cash set aside if the put expires worthless. */
  mean_promised_return: z.number(),
  /** Mean P&L / strike, gross of commission. */
  mean_realised_return: z.number(),
  /** Sum of the P&L of one contract (100 shares) of each pick, in dollars, gross of commission. */
  pnl_per_contract: z.number(),
});
export type TrackRecordGroup = z.infer<typeof TrackRecordGroup>;

export const CalibrationBucket = TrackRecordGroup.extend({
  from: Fraction,
  to: Fraction,
  /** 95% Wilson interval of observed_profit_rate; null for an empty bucket. */
  low: Fraction.nullable(),
  high: Fraction.nullable(),
});
export type CalibrationBucket = z.infer<typeof CalibrationBucket>;

/**
 * Returns on the cash set aside (strike × 100 from the day shown to expiry), weighted by
 * collateral-days and put a year (docs/decisions/0097-track-record-returns-on-collateral-days.md):
 * what the record leads with, because it counts assignments' losses and sets them against T-bills.
 */
export const OnCollateral = z.object({
  count: z.number().int().min(0),
  /** Σ strike × 100 × calendar days from shown to expiry, in dollar-days. */
  collateral_days: z.number().min(0),
  /** Premium at the bid (the mid where a pick was shown so), a year on the collateral-days. */
  promised: z.number(),
  /** P&L gross of commission, assigned shares at the expiry close, a year on the collateral-days. */
  realised: z.number(),
  /** T-bills on the same cash over the same days, at the rate each put was priced with, a year. */
  tbills: z.number(),
});
export type OnCollateral = z.infer<typeof OnCollateral>;

export const ScoredPickRow = z.object({
  ticker: z.string(),
  option_symbol: z.string(),
  shown_day: DateOnly,
  expiration: DateOnly,
  strike: z.number(),
  premium: z.number(),
  probability_of_profit: Fraction,
  close_at_expiry: z.number(),
  outcome: z.enum(["expired_worthless", "assigned"]),
  pnl_per_share: z.number(),
  source: z.enum(["live", "backtest"]),
});
export type ScoredPickRow = z.infer<typeof ScoredPickRow>;

/**
 * The covered calls the screen suggested to traders (each once per trader, option and day), scored
 * from the expiry close against the adjusted basis shown. Totals only: each row is someone's holding.
 */
export const CallRecord = z.object({
  count: z.number().int().min(0),
  /** Closed above the strike: the shares were sold at the strike. */
  called_away: z.number().int().min(0),
  /** Closed at or below the strike: the premium and the shares kept. */
  kept: z.number().int().min(0),
  pending: z.number().int().min(0),
  simulated: z.boolean(),
  /** Mean bid / adjusted basis: the premium's return on the money in the shares. */
  mean_promised_return: z.number(),
  /** Mean P&L / adjusted basis, gross of commission: premium + strike − basis when called away, the premium when kept. */
  mean_realised_return: z.number(),
  /** Sum of the P&L of one contract (100 shares) of each call, in dollars, gross of commission. */
  pnl_per_contract: z.number(),
  /** Mean risk-neutral chance of being called shown, N(d2); null when none was shown. */
  mean_chance_called: Fraction.nullable(),
  first_shown: DateOnly.nullable(),
  last_expiry: DateOnly.nullable(),
});
export type CallRecord = z.infer<typeof CallRecord>;

export const TrackRecord = z.object({
  /** Some recorded picks were priced and scored in the simulated market. */
  simulated: z.boolean(),
  generated_at: Timestamp,
  totals: TrackRecordGroup.extend({
    /** Recommended but not expired yet (or no close found yet). */
    pending: z.number().int().min(0),
    live: z.number().int().min(0),
    backtest: z.number().int().min(0),
    /** Picks priced at the mid rather than the bid. */
    at_mid: z.number().int().min(0),
    first_shown: DateOnly.nullable(),
    first_expiry: DateOnly.nullable(),
    last_expiry: DateOnly.nullable(),
  }),
  calibration: z.array(CalibrationBucket),
  by_ticker: z.array(TrackRecordGroup.extend({ ticker: z.string() })),
  /** By the month of expiry, oldest first. */
  by_month: z.array(TrackRecordGroup.extend({ month: z.string().regex(/^\d{4}-\d{2}$/) })),
  /** The latest scored picks, latest expiry first. */
  recent: z.array(ScoredPickRow),
  /** The latest assigned picks, latest expiry first, so assignments can be audited too (issue 46). */
  recent_assigned: z.array(ScoredPickRow).optional(),
  /** The latest picks that expired worthless, latest expiry first. */
  recent_expired: z.array(ScoredPickRow).optional(),
  /** Realised against promised and T-bills, on collateral-days: the headline (ADR 0097). */
  on_collateral: OnCollateral,
  /** The covered calls the screen suggested, scored at expiry (docs/decisions/0088). */
  calls: CallRecord,
});
export type TrackRecord = z.infer<typeof TrackRecord>;

export const LandingStats = z.object({
  simulated: z.boolean(),
  /**
   * The headline: realised against promised and T-bills, on collateral-days (ADR 0097), over the
   * scored picks expiring first_expiry – last_expiry; null before any is scored.
   */
  returns: OnCollateral.extend({
    first_expiry: DateOnly,
    last_expiry: DateOnly,
    /** Picks whose premium was the mid, not the bid. */
    at_mid: z.number().int().min(0),
  }).nullable(),
  /** Share of scored picks that expired worthless, with the expiries it covers; null before any. */
  expired_worthless: z.object({
    share: Fraction.nullable(),
    count: z.number().int().min(0),
    first_expiry: DateOnly.nullable(),
    last_expiry: DateOnly.nullable(),
  }),
  scored: z.number().int().min(0),
  tickers_scored: z.number().int().min(0),
  /** Puts the engine priced on the latest New York day it ran (each stock's latest run). */
  latest_session: z.object({ day: DateOnly.nullable(), puts_priced: z.number().int().min(0) }),
  /** Stocks on someone's watchlist or on the curated list. */
  stocks_followed: z.number().int().min(0),
});
export type LandingStats = z.infer<typeof LandingStats>;
