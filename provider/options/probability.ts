/**
 * Terminal-price probabilities under the lognormal model with risk-neutral drift r − q, the same
 * world the option prices come from (not a forecast of the real drift).
 */
import { normCdf } from "./normal.ts";

export interface TerminalInputs {
  spot: number;
  /** The price level to compare the terminal price with, e.g. a short put's breakeven. */
  level: number;
  years: number;
  rate: number;
  dividendYield?: number;
  volatility: number;
}

/** P(S_T > level). With no time or no volatility the forward decides it outright. */
export function probabilityAbove(o: TerminalInputs): number {
  const { spot: S, level: L, rate: r, volatility: sigma } = o;
  const q = o.dividendYield ?? 0;
  const T = Math.max(0, o.years);
  if (!(S > 0) || !Number.isFinite(L) || !Number.isFinite(sigma) || sigma < 0) {
    throw new RangeError(`Invalid inputs: spot ${S}, level ${L}, volatility ${sigma}`);
  }
  if (L <= 0) return 1;
  const sd = sigma * Math.sqrt(T);
  if (!(sd > 1e-12)) return S * Math.exp((r - q) * T) > L ? 1 : 0;
  const d2 = (Math.log(S / L) + (r - q - 0.5 * sigma * sigma) * T) / sd;
  return normCdf(d2);
}

/** P(S_T < level). */
export function probabilityBelow(o: TerminalInputs): number {
  return 1 - probabilityAbove(o);
}

/** A short put breaks even when the stock ends at the strike less the premium received. */
export function putBreakeven(strike: number, premium: number): number {
  return strike - premium;
}
