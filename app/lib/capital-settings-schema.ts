import { z } from "zod";
import { capitalSettingsSchema } from "#contract/capital-settings.ts";

/**
 * The capital settings form's schema (docs/product.md#plan-settings): the contract's, with shares
 * typed as percentages, capital left empty for "not set" and the fit filter a checkbox. Apart from
 * app/routes/profile/capital-settings.ts so /profile renders the form without zod (ADR 0051).
 */
const contract = capitalSettingsSchema(100).shape;
export const CapitalSettingsForm = z.object({
  capital: contract.capital.unwrap().optional(),
  reserve_share: contract.reserve_share,
  ticker_limit: contract.ticker_limit,
  sector_limit: contract.sector_limit,
  only_fitting: z.boolean().optional(),
});
export type CapitalSettingsForm = z.infer<typeof CapitalSettingsForm>;
