/**
 * Black-Scholes-Merton for European options on a stock paying a continuous dividend yield.
 * Greeks are scaled the way traders quote them: theta per calendar day, vega per volatility
 * point (0.01 of sigma), rho per 1% of rate.
 */
import { normCdf, normPdf } from "./normal.ts";

export type OptionType = "put" | "call";

export interface OptionInputs {
  spot: number;
  strike: number;
  /** Time to expiry in years (calendar: days / 365). Zero or less means expired. */
  years: number;
  /** Continuously compounded risk-free rate, e.g. 0.045. */
  rate: number;
  /** Continuous dividend yield; 0 when omitted. */
  dividendYield?: number;
  /** Annualised volatility as a fraction, e.g. 0.25. */
  volatility: number;
}

export interface Greeks {
  price: number;
  delta: number;
  gamma: number;
  /** Value change per calendar day that passes (annual theta / 365). */
  theta: number;
  /** Value change per one volatility point (0.01 of sigma). */
  vega: number;
  /** Value change per 1% (0.01) move of the rate. */
  rho: number;
}

/** Below this σ√T the lognormal spread is nil and the option is worth its discounted intrinsic value. */
const MIN_STDDEV = 1e-12;

function checkInputs(o: OptionInputs): void {
  const ok =
    Number.isFinite(o.spot) &&
    o.spot > 0 &&
    Number.isFinite(o.strike) &&
    o.strike > 0 &&
    Number.isFinite(o.years) &&
    Number.isFinite(o.rate) &&
    Number.isFinite(o.dividendYield ?? 0) &&
    Number.isFinite(o.volatility) &&
    o.volatility >= 0;
  if (!ok) {
    throw new RangeError(
      `Invalid option inputs: spot ${o.spot}, strike ${o.strike}, years ${o.years}, rate ${o.rate}, ` +
        `dividend yield ${o.dividendYield ?? 0}, volatility ${o.volatility} (spot and strike must be > 0, volatility ≥ 0)`,
    );
  }
}

/** Price and greeks of a European put or call. */
export function bsGreeks(type: OptionType, o: OptionInputs): Greeks {
  checkInputs(o);
  const { spot: S, strike: K, rate: r, volatility: sigma } = o;
  const q = o.dividendYield ?? 0;
  const T = o.years;

  if (T <= 0) return expired(type, S, K);

  const dq = Math.exp(-q * T);
  const dr = Math.exp(-r * T);
  const sqrtT = Math.sqrt(T);
  const sd = sigma * sqrtT;
  if (!(sd > MIN_STDDEV)) return deterministic(type, S * dq, K * dr, q, r, T);

  const d1 = (Math.log(S / K) + (r - q + 0.5 * sigma * sigma) * T) / sd;
  const d2 = d1 - sd;
  const pdf = normPdf(d1);
  const gamma = (dq * pdf) / (S * sd);
  const vega = S * dq * pdf * sqrtT;
  const decay = -(S * dq * pdf * sigma) / (2 * sqrtT);

  if (type === "call") {
    const n1 = normCdf(d1);
    const n2 = normCdf(d2);
    return {
      price: Math.max(0, S * dq * n1 - K * dr * n2),
      delta: dq * n1,
      gamma,
      theta: (decay - r * K * dr * n2 + q * S * dq * n1) / 365,
      vega: vega / 100,
      rho: (K * T * dr * n2) / 100,
    };
  }
  const m1 = normCdf(-d1);
  const m2 = normCdf(-d2);
  return {
    price: Math.max(0, K * dr * m2 - S * dq * m1),
    delta: -dq * m1,
    gamma,
    theta: (decay + r * K * dr * m2 - q * S * dq * m1) / 365,
    vega: vega / 100,
    rho: (-K * T * dr * m2) / 100,
  };
}

/** Price of a European put or call. */
export function bsPrice(type: OptionType, o: OptionInputs): number {
  return bsGreeks(type, o).price;
}

/** At expiry: intrinsic value; delta is a step (half at the money). */
function expired(type: OptionType, S: number, K: number): Greeks {
  const sign = type === "call" ? 1 : -1;
  const moneyness = sign * (S - K);
  const delta = moneyness > 0 ? sign : moneyness === 0 ? sign / 2 : 0;
  return { price: Math.max(0, moneyness), delta, gamma: 0, theta: 0, vega: 0, rho: 0 };
}

/** No volatility: the stock grows at r − q for sure, so the option is the discounted forward intrinsic value. */
function deterministic(type: OptionType, pvSpot: number, pvStrike: number, q: number, r: number, T: number): Greeks {
  const sign = type === "call" ? 1 : -1;
  const moneyness = sign * (pvSpot - pvStrike);
  const weight = moneyness > 0 ? 1 : moneyness === 0 ? 0.5 : 0;
  const dq = Math.exp(-q * T);
  return {
    price: Math.max(0, moneyness),
    delta: sign * dq * weight,
    gamma: 0,
    // θ = −∂V/∂T of ±(S e^{−qT} − K e^{−rT}).
    theta: (sign * weight * (q * pvSpot - r * pvStrike)) / 365,
    vega: 0,
    rho: (sign * weight * T * pvStrike) / 100,
  };
}
