/**
 * A trader's capital settings (issue 42, docs/decisions/0081-capital-plan-from-the-journal-replay.md),
 * apart from contract/plan.ts so the /profile form's lazily loaded schema imports no other entity.
 */
import { z } from "zod";

/** Bounds of the capital settings (docs/product.md#plan-settings). */
const CAPITAL_BOUNDS = {
  capitalMin: 1_000,
  capitalMax: 100_000_000,
  /** Of capital, as a share. */
  reserveMax: 0.9,
  limitMin: 0.01,
  limitMax: 1,
} as const;

/** Why a setting is refused, in the words of the /profile form. */
const CAPITAL_ERRORS = {
  capitalNumber: "Capital for selling puts must be a number",
  capitalRange: "Capital for selling puts must be from $1,000 to $100,000,000, or empty",
  reserveNumber: "Cash reserve must be a number",
  reserveRange: "Cash reserve must be from 0% to 90% of capital",
  tickerNumber: "Maximum per ticker must be a number",
  tickerRange: "Maximum per ticker must be from 1% to 100% of capital",
  sectorNumber: "Maximum per sector must be a number",
  sectorRange: "Maximum per sector must be from 1% to 100% of capital",
} as const;
const E = CAPITAL_ERRORS;
const B = CAPITAL_BOUNDS;

/**
 * A trader's capital settings, shares as fractions (`scale` 1: 0.25 = 25%) in the call and as
 * percentages (`scale` 100) on the /profile form, refused in the same words. A null capital is
 * "not set": the plan then says how to set it instead of guessing.
 */
export function capitalSettingsSchema(scale: 1 | 100) {
  const share = (min: number, max: number, number: string, range: string) =>
    z
      .number({ error: number })
      .min(min * scale, range)
      .max(max * scale, range);
  return z.object({
    capital: z
      .number({ error: E.capitalNumber })
      .min(B.capitalMin, E.capitalRange)
      .max(B.capitalMax, E.capitalRange)
      .nullable(),
    reserve_share: share(0, B.reserveMax, E.reserveNumber, E.reserveRange),
    ticker_limit: share(B.limitMin, B.limitMax, E.tickerNumber, E.tickerRange),
    sector_limit: share(B.limitMin, B.limitMax, E.sectorNumber, E.sectorRange),
    /** The /insights filter "only puts that fit my free cash and limits" (on once capital is set). */
    only_fitting: z.boolean(),
  });
}
export const CapitalSettings = capitalSettingsSchema(1);
export type CapitalSettings = z.infer<typeof CapitalSettings>;

export const DEFAULT_CAPITAL_SETTINGS: CapitalSettings = {
  capital: null,
  reserve_share: 0.1,
  ticker_limit: 0.25,
  sector_limit: 0.4,
  only_fitting: true,
};
