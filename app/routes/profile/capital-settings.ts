import type { CapitalSettings } from "#contract/plan.ts";
import type { CapitalSettingsForm } from "#app/lib/capital-settings-schema.ts";

/**
 * The capital settings form on /profile (docs/product.md#plan-settings, ADR 0081): shares typed as
 * percentages, sent to the provider as fractions; an empty capital is "not set". Imported by the
 * profile route only; the form's schema is in app/lib/capital-settings-schema.ts.
 */
const fraction = (percent: number) => Math.round(percent * 100) / 10_000;
const percent = (share: number) => Math.round(share * 10_000) / 100;

export const toCapitalSettings = (form: CapitalSettingsForm): CapitalSettings => ({
  capital: form.capital ?? null,
  reserve_share: fraction(form.reserve_share),
  ticker_limit: fraction(form.ticker_limit),
  sector_limit: fraction(form.sector_limit),
  only_fitting: form.only_fitting ?? false,
});

export const toCapitalSettingsForm = (settings: CapitalSettings) => ({
  capital: settings.capital === null ? "" : String(settings.capital),
  reserve_share: String(percent(settings.reserve_share)),
  ticker_limit: String(percent(settings.ticker_limit)),
  sector_limit: String(percent(settings.sector_limit)),
  only_fitting: settings.only_fitting ? "on" : undefined,
});

export const CAPITAL_SETTINGS_TEXT = {
  title: "Capital Plan",
  intro:
    "The cash you set aside for selling puts and the limits your plan keeps. Collateral is cash-secured: " +
    "strike × 100 × contracts. Leave capital empty to turn the plan off.",
  capital: "Capital for selling puts ($)",
  reserve: "Cash reserve kept free, % of capital",
  tickerLimit: "Maximum per ticker, % of capital",
  sectorLimit: "Maximum per sector, % of capital",
  onlyFitting: "On Insights, show only puts that fit my free cash and limits",
  save: "Save capital plan",
  saved: "Capital plan saved",
  unavailable: "Capital settings are unavailable right now.",
  failed: "Your capital settings could not be saved. Please try again.",
  planLink: "See your plan",
} as const;
