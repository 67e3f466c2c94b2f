/**
 * Server rendering under load: autocannon against /user-stocks (the signed-in trader's 50-row
 * watchlist, rendered in full) and /healthz (the app and a provider ping, no rendering), in the
 * same run against the same production process (server.ts with its embedded provider). Requests
 * per second and latency p50/p99 for each; each target is warmed up first.
 *
 * Goals (issue 22): /user-stocks at least 160 renders per second of one core, the page's bytes
 * per row 40% under 2.8 kB, p99 under 100 ms at 10 connections. Renders per core-second are the
 * requests served over the app process's CPU time meanwhile (/proc; the embedded provider runs in
 * that process too), which other jobs on a shared machine skew far less than requests per second.
 * The page's bytes per row are split into markup and the hydration data (the loader data React
 * Router streams in `<script>` tags), both uncompressed.
 *
 *   npm run build && npm run bench -- server-load      or      npx node bench/server-load.bench.ts
 */
import autocannon from "autocannon";
import { report } from "./report.ts";
import { prepareStore, SIZES, startApp } from "./support/bench-app.ts";
import { cpuMs, loadAverage, untilQuiet } from "./support/proc.ts";
import { TRACK_RECORD_FIRST_RUN_MS } from "#provider/app.ts";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const GOALS = { rendersPerCoreSecond: 160, bytesPerRow: Math.round(2800 * 0.6), p99Ms: 100 };

interface Figures {
  requests_per_second: number;
  /** Requests served per second of the app process's CPU time. */
  per_core_second: number;
  latency_ms: { p50: number; p90: number; p99: number; max: number };
  requests: number;
  non_2xx: number;
  errors: number;
  timeouts: number;
  kilobytes_per_response: number;
}

async function load(pid: number, url: string, headers: Record<string, string>, duration: number): Promise<Figures> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration });
  const cpuSeconds = (cpuMs(pid) - cpuBefore) / 1000;
  return {
    requests_per_second: Math.round(result.requests.average * 10) / 10,
    per_core_second: cpuSeconds > 0 ? Math.round((result.requests.total / cpuSeconds) * 10) / 10 : NaN,
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

/** The page's bytes: the hydration data (React Router's streamed loader data) and the markup around it. */
function pageBytes(html: string): { markup: number; data: number } {
  const scripts = [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const data = scripts.filter((s) => s.includes("streamController.enqueue")).reduce((n, s) => n + byteLength(s), 0);
  return { markup: byteLength(html) - data, data };
}
const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

const loadAtStart = loadAverage();
const dataDir = await prepareStore();
const app = await startApp(dataDir);
try {
  const signedIn = { cookie: app.cookie, accept: "text/html" };
  const page = await fetch(`${app.url}/user-stocks`, { headers: signedIn });
  const html = await page.text();
  const rows = new Set([...html.matchAll(/<li[^>]*data-ticker="([^"]+)"/g)].map((m) => m[1])).size;
  if (page.status !== 200 || rows < SIZES.watchlist) throw new Error(`/user-stocks: ${page.status}, ${rows} rows`);

  const bytes = pageBytes(html);
  const perRow = {
    markup: Math.round(bytes.markup / rows),
    data: Math.round(bytes.data / rows),
    total: Math.round((bytes.markup + bytes.data) / rows),
  };

  const pid = app.child.pid!;
  // Past the track record's first run, which back-tests a new store: a one-time job, not rendering.
  const quietAfterMs = await untilQuiet(pid, { notBefore: app.startedAt + TRACK_RECORD_FIRST_RUN_MS + 1_000 });
  await load(pid, `${app.url}/user-stocks`, signedIn, 3);
  await load(pid, `${app.url}/healthz`, {}, 3);
  const userStocks = await load(pid, `${app.url}/user-stocks`, signedIn, DURATION_S);
  const healthz = await load(pid, `${app.url}/healthz`, {}, DURATION_S);
  const result = {
    headline: {
      "renders/core-s": userStocks.per_core_second,
      "req/s": userStocks.requests_per_second,
      "p99 ms": userStocks.latency_ms.p99,
      "B/row markup": perRow.markup,
      "B/row data": perRow.data,
      "/healthz req/s": healthz.requests_per_second,
    },
    goals: GOALS,
    met: {
      renders_per_core_second: userStocks.per_core_second >= GOALS.rendersPerCoreSecond,
      bytes_per_row: perRow.total <= GOALS.bytesPerRow,
      p99: userStocks.latency_ms.p99 < GOALS.p99Ms,
    },
    connections: CONNECTIONS,
    duration_s: DURATION_S,
    rows_rendered: rows,
    quiet_after_ms: quietAfterMs,
    html_kilobytes: Math.round(byteLength(html) / 102.4) / 10,
    bytes_per_row: perRow,
    user_stocks: userStocks,
    healthz,
    render_cost_ratio: Math.round((healthz.requests_per_second / userStocks.requests_per_second) * 10) / 10,
    // Other work on the machine skews the latencies and req/s; the load averages say how much there was.
    load_average: { start: loadAtStart, end: loadAverage() },
  };
  const line = (name: string, f: Figures) =>
    `${name.padEnd(14)} ${String(f.requests_per_second).padStart(8)} req/s   ${f.per_core_second} per core-s   p50 ${f.latency_ms.p50} ms   p99 ${f.latency_ms.p99} ms   non-2xx ${f.non_2xx}, errors ${f.errors}`;
  console.log(`${CONNECTIONS} connections, ${DURATION_S} s each, ${rows} rows on /user-stocks`);
  console.log(`per row: ${perRow.markup} B markup + ${perRow.data} B hydration data = ${perRow.total} B`);
  console.log(line("/user-stocks", userStocks));
  console.log(line("/healthz", healthz));
  report(result);
} finally {
  await app.stop();
}
