import { z } from "zod";

/**
 * Alerts on open short puts (docs/product.md#alerts-positions, ADR 0034): the events and the trader's
 * thresholds.
 */

const POSITION_ALERT_EVENTS = [
  "profit_target",
  "near_strike",
  "through_strike",
  "earnings",
  "expiry_itm",
  "ex_dividend",
  // A short put deep in the money, its time value below the interest on the strike (ADR 0077).
  "early_exercise",
] as const;
export const PositionAlertEvent = z.enum(POSITION_ALERT_EVENTS);
export type PositionAlertEvent = z.infer<typeof PositionAlertEvent>;

/**
 * The alerts already sent per open position, keyed by the option's OCC symbol (one open position
 * per contract), oldest first: GET /api/journal's `position_alerts`. Kept out of entities.ts, which
 * every screen loads.
 */
export const PositionAlertsByOption = z.record(z.string(), z.array(PositionAlertEvent));
export type PositionAlertsByOption = z.infer<typeof PositionAlertsByOption>;

/** Why a threshold is refused, in the words of the /profile form (docs/product.md#alerts-settings). */
const ALERT_SETTING_ERRORS = {
  profitNumber: "Profit taken must be a number",
  profitLow: "Profit taken must be more than 0%",
  profitHigh: "Profit taken must be at most 100%",
  distanceNumber: "Distance to the strike must be a number",
  distanceLow: "Distance to the strike must be at least 0%",
  distanceHigh: "Distance to the strike must be at most 100%",
  earningsNumber: "Trading days before earnings must be a number",
  earningsWhole: "Trading days before earnings must be a whole number",
  earningsLow: "Trading days before earnings must be at least 0",
  earningsHigh: "Trading days before earnings must be at most 20",
} as const;
const E = ALERT_SETTING_ERRORS;

/**
 * A trader's alert thresholds, as shares (`scale` 1: 0.5 = 50%) in the call, as percentages
 * (`scale` 100) on the /profile form, refused in the same words. `earnings_days` counts NYSE
 * trading days from today to the report.
 */
export function alertSettingsSchema(scale: 1 | 100) {
  return z.object({
    /** Profit taken, net of closing at the ask and the commission, as a share of the most the put can make. */
    profit_share: z.number({ error: E.profitNumber }).gt(0, E.profitLow).max(scale, E.profitHigh),
    /** How close the stock may come above the strike, as a share of the strike. */
    strike_distance: z.number({ error: E.distanceNumber }).min(0, E.distanceLow).max(scale, E.distanceHigh),
    earnings_days: z
      .number({ error: E.earningsNumber })
      .int(E.earningsWhole)
      .min(0, E.earningsLow)
      .max(20, E.earningsHigh),
  });
}
export const AlertSettings = alertSettingsSchema(1);
export type AlertSettings = z.infer<typeof AlertSettings>;

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { profit_share: 0.5, strike_distance: 0.03, earnings_days: 2 };
