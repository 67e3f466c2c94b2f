/**
 * Implied volatility: Newton's method on vega, kept inside a shrinking bracket and falling back
 * to bisection whenever a Newton step would leave it, so it always converges.
 */
import { bsGreeks, bsPrice, type OptionInputs, type OptionType } from "./black-scholes.ts";

const MIN_IMPLIED_VOLATILITY = 0.001;
const MAX_IMPLIED_VOLATILITY = 5;

/** The price cannot come from any volatility in range (below intrinsic, above the no-arbitrage bound, or expired). */
export class NoImpliedVolatilityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoImpliedVolatilityError";
  }
}

export interface ImpliedVolatilityOptions {
  /** Lowest volatility returned; prices between intrinsic value and the price at this volatility return it. */
  min?: number;
  /** Highest volatility searched; a price above the price at this volatility throws. */
  max?: number;
  /** Absolute price tolerance. */
  tolerance?: number;
}

const money = (x: number) => x.toFixed(x < 1 ? 4 : 2);

/** The annualised volatility at which Black-Scholes-Merton gives `price`. */
export function impliedVolatility(
  type: OptionType,
  price: number,
  inputs: Omit<OptionInputs, "volatility">,
  options: ImpliedVolatilityOptions = {},
): number {
  const min = options.min ?? MIN_IMPLIED_VOLATILITY;
  const max = options.max ?? MAX_IMPLIED_VOLATILITY;
  const tolerance = options.tolerance ?? 1e-10;
  if (!Number.isFinite(price) || price < 0) {
    throw new NoImpliedVolatilityError(`Option price ${price} is not a non-negative number`);
  }
  const { spot: S, strike: K, years: T, rate: r } = inputs;
  const q = inputs.dividendYield ?? 0;
  if (!(T > 0)) throw new NoImpliedVolatilityError("The option has expired, so it has no implied volatility");

  const pvSpot = S * Math.exp(-q * T);
  const pvStrike = K * Math.exp(-r * T);
  const intrinsic = Math.max(0, type === "call" ? pvSpot - pvStrike : pvStrike - pvSpot);
  const ceiling = type === "call" ? pvSpot : pvStrike;
  const slack = 1e-9 * Math.max(1, K);
  if (price < intrinsic - slack) {
    throw new NoImpliedVolatilityError(
      `Price ${money(price)} is below the ${type}'s intrinsic value ${money(intrinsic)}, so no volatility fits it`,
    );
  }
  if (price >= ceiling) {
    throw new NoImpliedVolatilityError(
      `Price ${money(price)} is at or above the ${type}'s no-arbitrage bound ${money(ceiling)}, so no volatility fits it`,
    );
  }

  const at = (sigma: number) => bsGreeks(type, { ...inputs, volatility: sigma });
  // Deep in or far out of the money the time value can be below what even the floor volatility gives.
  if (price <= bsPrice(type, { ...inputs, volatility: min }) + tolerance) return min;
  if (price > bsPrice(type, { ...inputs, volatility: max }) + tolerance) {
    throw new NoImpliedVolatilityError(
      `Price ${money(price)} would need a volatility above ${max * 100}%, the highest this solver accepts`,
    );
  }

  let lo = min;
  let hi = max;
  // Manaster–Koehler start: the volatility that maximises vega, a good point for Newton.
  const start = Math.sqrt((2 * Math.abs(Math.log(S / K) + (r - q) * T)) / T);
  let sigma = start > lo && start < hi ? start : 0.3;
  for (let i = 0; i < 200; i++) {
    const g = at(sigma);
    const diff = g.price - price;
    if (Math.abs(diff) <= tolerance) return sigma;
    if (diff > 0) hi = sigma;
    else lo = sigma;
    const vegaPerUnit = g.vega * 100;
    let next = vegaPerUnit > 1e-12 ? sigma - diff / vegaPerUnit : Number.NaN;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (Math.abs(next - sigma) < 1e-14 || hi - lo < 1e-14) return next;
    sigma = next;
  }
  return sigma;
}
