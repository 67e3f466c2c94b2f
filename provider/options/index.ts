/** Pure options math: pricing, greeks, implied and historical volatility, OCC symbols, probabilities. */
export { normCdf, normPdf } from "./normal.ts";
export { bsGreeks, bsPrice, type Greeks, type OptionInputs, type OptionType } from "./black-scholes.ts";
export {
  impliedVolatility,
  MAX_IMPLIED_VOLATILITY,
  MIN_IMPLIED_VOLATILITY,
  NoImpliedVolatilityError,
  type ImpliedVolatilityOptions,
} from "./implied-volatility.ts";
export { historicalVolatility, TRADING_DAYS_PER_YEAR } from "./historical-volatility.ts";
export { formatOccSymbol, InvalidOccSymbolError, parseOccSymbol, type OccParts } from "./occ-symbol.ts";
export { probabilityAbove, probabilityBelow, putBreakeven, type TerminalInputs } from "./probability.ts";
