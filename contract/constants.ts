/**
 * Plain values of the contract that pages use in the browser, apart from the zod schemas of
 * entities.ts (which re-exports them) so that using one does not load zod on first load.
 */

/** Synthetic filter chips of the UIP list (docs/product.md#screens-uip-list). */
export const ALL_CATEGORIES_ID = -1;
export const BELOW_IV_ID = -2;

export const CONFIG_KEYS = ["auto_refresh_enabled", "auto_trade_recommendation_generation_enabled"] as const;

/** Read as true when 1, '1', true or 'true' (docs/product.md#entities-config). */
export function configIsOn(value: unknown): boolean {
  return value === 1 || value === "1" || value === true || value === "true";
}
