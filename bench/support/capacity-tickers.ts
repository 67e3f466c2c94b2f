import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import type { SimulatedTicker } from "#provider/market/simulated.ts";

/** bench/capacity's tickers: the demo's first, then ZC0012… priced and moving like them. */
export function benchTickers(count: number): SimulatedTicker[] {
  return Array.from({ length: count }, (_, i) => {
    const base = DEMO_TICKERS[i % DEMO_TICKERS.length]!;
    if (i < DEMO_TICKERS.length) return base;
    return { ...base, ticker: `ZC${String(i).padStart(4, "0")}`, name: `${base.name} (bench copy ${i})` };
  });
}
