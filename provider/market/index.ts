/** Market data: the port, the simulated market, and the New York calendar helpers callers need. */
export * from "./port.ts";
export {
  createSimulatedMarket,
  isSimulatedMarket,
  type SimulatedMarket,
  type SimulatedMarketOptions,
  type SimulatedTicker,
} from "./simulated.ts";
export { isMarketOpen, sessionAt, yearsToExpiry, type Session } from "./calendar.ts";
export { FALLBACK_RISK_FREE_RATE, marketRate } from "./rates.ts";
