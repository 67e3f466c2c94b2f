import type { MarketData } from "./port.ts";

/**
 * "Now" on the trading calendar (docs/decisions/0091-one-market-clock.md): the market's own clock when
 * it has one (the simulated market, a replay, a test's frozen market), else the server's. Every
 * decision by "today" reads it; token expiry, rate limits, sessions and leases keep the server's.
 */
export function marketNow(market: Pick<MarketData, "now">): Date {
  return market.now?.() ?? new Date();
}
