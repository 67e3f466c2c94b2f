import type { AlertSettings } from "#contract/position-alerts.ts";
import type { AlertSettingsForm } from "#app/lib/alert-settings-schema.ts";

/**
 * The alert thresholds form on /profile (docs/product.md#alerts-settings): shares typed as
 * percentages, sent to the provider as fractions (the contract's AlertSettings). Imported only
 * by the profile route, so its texts stay out of the shared bundle; the form's schema is in
 * app/lib/alert-settings-schema.ts.
 */
/** Percent to a fraction without binary noise (7% is 0.07, not 0.07000000000000001). */
const fraction = (percent: number) => Math.round(percent * 100) / 10_000;
const percent = (share: number) => Math.round(share * 10_000) / 100;

export const toAlertSettings = (form: AlertSettingsForm): AlertSettings => ({
  profit_share: fraction(form.profit_share),
  strike_distance: fraction(form.strike_distance),
  earnings_days: form.earnings_days,
});

export const toAlertSettingsForm = (settings: AlertSettings): AlertSettingsForm => ({
  profit_share: percent(settings.profit_share),
  strike_distance: percent(settings.strike_distance),
  earnings_days: settings.earnings_days,
});

export const ALERT_SETTINGS_TEXT = {
  title: "Position Alerts",
  intro:
    "Alerts on your open short puts and calls, by push and in your notifications, once per position and event. " +
    "Profit taken is what buying to close at the ask keeps, net of your commission per contract.",
  profitShare: "Profit taken, % of the maximum",
  strikeDistance: "Stock within % of the strike",
  earningsDays: "Earnings within trading days before expiry",
  save: "Save alert settings",
  saved: "Alert settings saved",
  unavailable: "Alert settings are unavailable right now.",
  failed: "Your alert settings could not be saved. Please try again.",
} as const;
