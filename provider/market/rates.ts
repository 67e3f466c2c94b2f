/**
 * Model inputs from vendors' quoting conventions: the risk-free rate from the 13-week Treasury bill
 * and dividend yields given in percent.
 */

import type { MarketData } from "./port.ts";

/**
 * The one fallback rate (continuous, a fraction), used only when the source has none: the simulated
 * market and Tradier without RISK_FREE_RATE, Yahoo when ^IRX cannot be read. Everything that needs
 * the rate (generation, the AI facts, the simulated prices) asks the market for it (`marketRate`),
 * so the figures of one product agree whichever source is on (docs/product.md#states-option-card).
 */
export const FALLBACK_RISK_FREE_RATE = 0.045;

/** The rate the market in use prices with: the one its chains carry. */
export async function marketRate(market: Pick<MarketData, "riskFreeRate">): Promise<number> {
  return market.riskFreeRate ? await market.riskFreeRate() : FALLBACK_RISK_FREE_RATE;
}

/**
 * The continuously compounded rate of a 13-week (91-day) T-bill quoted, as ^IRX is, as a bank
 * discount yield in percent: the bill costs 1 − d·91/360 per 1 of face value and grows to 1 in
 * 91 days, so r = −ln(1 − d·91/360) · 365/91. 4.05 gives 0.041274.
 */
export function rateFromTBill(discountPercent: number): number {
  const price = 1 - ((discountPercent / 100) * 91) / 360;
  return (-Math.log(price) * 365) / 91;
}

/** A dividend yield quoted in percent (Yahoo's `dividendYield`: 0.45 means 0.45 %) as a fraction. */
export const yieldFromPercent = (percent: number): number => percent / 100;
