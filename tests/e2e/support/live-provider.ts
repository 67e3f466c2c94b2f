/**
 * A provider process for the live-updates and position-alerts browser tests: the real provider
 * server (PGlite in DATA_DIR, demo data, PROVIDER_SECRET) on PROVIDER_PORT, with auto refresh
 * switched on, pushes allowed to the hosts of PUSH_ALLOWED_HOSTS when set (a local push service,
 * its certificate in NODE_EXTRA_CA_CERTS), a market frozen in time whose quote the test can set,
 * and a control server on CONTROL_PORT (loopback):
 *   POST /price   {"ticker","price"}     sets the vendor's price (null: the simulated one again) and runs
 *                                       the real price job now (the refresh, then the alerts on open short options)
 *   POST /publish {"channel","message"}  publishes a raw message on the bus (e.g. an invalid one)
 *   POST /expiries {"day","closes","now"} sets each ticker's close on `day` (YYYY-MM-DD) in the daily
 *                                       bars ({"KO": 61.2}) and resolves the expired options at `now`
 *                                       (ISO; default the market's clock), as the expiries job does (ADR 0078)
 *   POST /clock {"now"}                 moves the market's frozen time (ISO): quotes, chains, history and
 *                                       the provider's clock, which decides what is today (ADR 0091)
 *   POST /facts {"ticker"}              answers the market's {price, ex_dividend} as of its clock: the
 *                                       quote, and the next ex-dividend {date, amount} or null
 */
import { createServer } from "node:http";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { PRICE_JOB } from "#provider/jobs/price-job.ts";
import { resolveExpiries } from "#provider/journal/expiry-resolution.ts";
import type { MarketData } from "#provider/market/port.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { startProviderServer } from "#provider/server.ts";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

/** Where the market's clock starts; POST /clock moves it. */
const FROZEN = new Date("2026-11-18T17:00:00Z");
let clock = FROZEN;
const simulated = createSimulatedMarket({ seed: 1, tickers: DEMO_TICKERS, now: () => clock });
const prices = new Map<string, { price: number; at: Date }>();
/** Daily closes a test set, per ticker and day, for the expiry resolution. */
const closes = new Map<string, Map<string, number>>();
const market: MarketData = {
  ...simulated,
  async dailyHistory(ticker, days) {
    const bars = await simulated.dailyHistory(ticker, days).catch(() => []);
    const set = closes.get(ticker.toUpperCase());
    if (!set) return bars;
    const kept = bars.filter((bar) => !set.has(bar.time));
    const added = [...set].map(([time, close]) => ({ time, open: close, high: close, low: close, close, volume: 0 }));
    return [...kept, ...added].sort((a, b) => a.time.localeCompare(b.time));
  },
  async quote(ticker) {
    const set = prices.get(ticker.toUpperCase());
    return set
      ? { ticker: ticker.toUpperCase(), price: set.price, asOf: set.at, source: "simulated" as const, stale: false }
      : simulated.quote(ticker);
  },
};

const running = await startProviderServer({
  port: Number(env("PROVIDER_PORT")),
  host: "127.0.0.1",
  dataDir: env("DATA_DIR"),
  seedDemo: true,
  secrets: [env("PROVIDER_SECRET")],
  jobs: false,
  market,
  ...(process.env.PUSH_ALLOWED_HOSTS ? { pushAllowedHosts: process.env.PUSH_ALLOWED_HOSTS.split(",") } : {}),
});
const { context, scheduler } = running.provider;
await context.db.updateTable("backend_config").set({ value: "1" }).where("key", "=", "auto_refresh_enabled").execute();

const control = createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  try {
    const input = JSON.parse(body || "{}") as Record<string, unknown>;
    if (req.url === "/price") {
      const ticker = String(input.ticker).toUpperCase();
      if (input.price === null) prices.delete(ticker);
      // Stamped by the real clock, as before: the watchlist ages a price from it (live-updates.spec.ts).
      else prices.set(ticker, { price: Number(input.price), at: new Date() });
      await scheduler.runNow(PRICE_JOB);
    } else if (req.url === "/expiries") {
      for (const [ticker, close] of Object.entries(input.closes as Record<string, number>)) {
        const set = closes.get(ticker.toUpperCase()) ?? new Map<string, number>();
        set.set(String(input.day), Number(close));
        closes.set(ticker.toUpperCase(), set);
      }
      await resolveExpiries(context, input.now ? { now: new Date(String(input.now)) } : {});
    } else if (req.url === "/clock") {
      const now = new Date(String(input.now));
      if (Number.isNaN(now.getTime())) throw new Error(`not an instant: ${String(input.now)}`);
      clock = now;
    } else if (req.url === "/facts") {
      const ticker = String(input.ticker);
      const facts = {
        price: (await market.quote(ticker)).price,
        ex_dividend: (await market.nextExDividend?.(ticker)) ?? null,
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(facts));
      return;
    } else if (req.url === "/publish") {
      await context.bus.publish(String(input.channel), input.message);
    } else {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(204).end();
  } catch (error) {
    res.writeHead(500).end((error as Error).message);
  }
});
await new Promise<void>((resolve) => control.listen(Number(env("CONTROL_PORT")), "127.0.0.1", resolve));
console.log(`live provider on ${running.url}`);

process.once("SIGTERM", () => {
  control.close();
  void running.close().then(() => process.exit(0));
});
