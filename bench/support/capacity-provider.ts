/**
 * A provider process for bench/capacity.bench.ts: the real provider server over the PostgreSQL
 * database in DATABASE_URL, jobs on, with a simulated market of BENCH_TICKERS tickers (the demo's,
 * then copies of them under new names) whose quotes answer after BENCH_VENDOR_MS, like a vendor's
 * HTTP round trip. Not a fake of our code: the market port is the internet's edge.
 */
import type { MarketData } from "#provider/market/port.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { startProviderServer } from "#provider/server.ts";
import { benchTickers } from "./capacity-tickers.ts";

const env = process.env;
const databaseUrl = env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL is required");
const tickers = Number(env.BENCH_TICKERS ?? 100);
const vendorMs = Number(env.BENCH_VENDOR_MS ?? 0);

const simulated = createSimulatedMarket({ seed: 1, tickers: benchTickers(tickers), replayWhenClosed: true });
const market: MarketData = {
  ...simulated,
  async quote(ticker) {
    if (vendorMs > 0) await new Promise((resolve) => setTimeout(resolve, vendorMs));
    return simulated.quote(ticker);
  },
};

const running = await startProviderServer({
  port: Number(env.PROVIDER_PORT),
  host: "127.0.0.1",
  databaseUrl,
  seedDemo: true,
  secrets: [env.PROVIDER_SECRET ?? "bench-capacity-provider-secret-0123456789"],
  priceRefreshSeconds: Number(env.PRICE_REFRESH_SECONDS ?? 3600),
  recommendationIntervalSeconds: 3600,
  leaderRetryMs: 500,
  jobPartitions: { pricePollMs: 1_000, recommendationPollMs: 1_000 },
  // Unset: the default; 0 for bench/capacity's "before" of ADR 0086.
  topLineCountCacheEntries: env.BENCH_COUNT_CACHE_ENTRIES ? Number(env.BENCH_COUNT_CACHE_ENTRIES) : undefined,
  market,
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
