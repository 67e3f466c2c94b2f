import type { z } from "zod";
import { alertSettingsSchema } from "#contract/position-alerts.ts";

/**
 * The alert thresholds form's schema (docs/product.md#alerts-settings): the contract's, with shares
 * typed as percentages. Apart from app/routes/profile/alert-settings.ts so /profile renders the form without
 * zod (ADR 0051).
 */
export const AlertSettingsForm = alertSettingsSchema(100);
export type AlertSettingsForm = z.infer<typeof AlertSettingsForm>;
