/**
 * Server rendering under load: autocannon against /user-stocks (the signed-in trader's 50-row
 * watchlist, rendered in full) and /healthz (the app and a provider ping, no rendering), in the
 * same run against the same production process (server.ts with its embedded provider). Requests
 * per second and latency p50/p99 for each; each target is warmed up first.
 *
 *   npm run build && npm run bench -- server-load      or      npx node bench/server-load.bench.ts
 */
import autocannon from "autocannon";
import { report } from "./report.ts";
import { prepareStore, SIZES, startApp } from "./support/bench-app.ts";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Figures {
  requests_per_second: number;
  latency_ms: { p50: number; p90: number; p99: number; max: number };
  requests: number;
  non_2xx: number;
  errors: number;
  timeouts: number;
  kilobytes_per_response: number;
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<Figures> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration });
  return {
    requests_per_second: Math.round(result.requests.average * 10) / 10,
    latency_ms: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    requests: result.requests.total,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    kilobytes_per_response: result.requests.total
      ? Math.round(result.throughput.total / result.requests.total / 102.4) / 10
      : 0,
  };
}

const dataDir = await prepareStore();
const app = await startApp(dataDir);
try {
  const signedIn = { cookie: app.cookie, accept: "text/html" };
  const page = await fetch(`${app.url}/user-stocks`, { headers: signedIn });
  const html = await page.text();
  const rows = new Set([...html.matchAll(/<li[^>]*data-ticker="([^"]+)"/g)].map((m) => m[1])).size;
  if (page.status !== 200 || rows < SIZES.watchlist) throw new Error(`/user-stocks: ${page.status}, ${rows} rows`);

  await load(`${app.url}/user-stocks`, signedIn, 3);
  await load(`${app.url}/healthz`, {}, 3);
  const userStocks = await load(`${app.url}/user-stocks`, signedIn, DURATION_S);
  const healthz = await load(`${app.url}/healthz`, {}, DURATION_S);
  const result = {
    headline: {
      "/user-stocks req/s": userStocks.requests_per_second,
      "p50 ms": userStocks.latency_ms.p50,
      "p99 ms": userStocks.latency_ms.p99,
      "/healthz req/s": healthz.requests_per_second,
      "p50 ms ": healthz.latency_ms.p50,
      "p99 ms ": healthz.latency_ms.p99,
    },
    connections: CONNECTIONS,
    duration_s: DURATION_S,
    rows_rendered: rows,
    html_kilobytes: Math.round(html.length / 102.4) / 10,
    user_stocks: userStocks,
    healthz,
    render_cost_ratio: Math.round((healthz.requests_per_second / userStocks.requests_per_second) * 10) / 10,
  };
  const line = (name: string, f: Figures) =>
    `${name.padEnd(14)} ${String(f.requests_per_second).padStart(8)} req/s   p50 ${f.latency_ms.p50} ms   p99 ${f.latency_ms.p99} ms   non-2xx ${f.non_2xx}, errors ${f.errors}`;
  console.log(`${CONNECTIONS} connections, ${DURATION_S} s each, ${rows} rows on /user-stocks`);
  console.log(line("/user-stocks", userStocks));
  console.log(line("/healthz", healthz));
  report(result);
} finally {
  await app.stop();
}
