/**
 * Lighthouse (mobile, default simulated throttling, performance only) on /login, /user-stocks
 * (50 rows), /uip-stocks (50 rows) and /insights (20 stocks, 1,000 options), signed in as the
 * bench trader where the page needs it: performance score, FCP, LCP, TBT, CLS and Speed Index,
 * median of RUNS (3) runs per page. Runs the system Chromium (CHROME_PATH, default
 * /usr/bin/chromium) headless without a sandbox; nothing is downloaded.
 *
 * SPA-mode comparison: a React Router `ssr: false` build of this app is refused by React Router
 * (every route has a server loader or action: 23 exports), so the ratio cannot be measured
 * without rewriting the loaders as client loaders; see docs/benchmarks.md.
 *
 *   npm run build && npm run bench -- lighthouse      or      npx node bench/lighthouse.bench.ts
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse from "lighthouse";
import { median, report } from "./report.ts";
import { freePort, prepareStore, startApp } from "./support/bench-app.ts";

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROME = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PAGES: { path: string; signedIn: boolean; what: string }[] = [
  { path: "/login", signedIn: false, what: "landing and sign-in" },
  { path: "/user-stocks", signedIn: true, what: "watchlist, 50 rows" },
  { path: "/uip-stocks", signedIn: true, what: "UIP list, 50 rows" },
  { path: "/insights", signedIn: true, what: "20 stocks, 1,000 options" },
];
const METRICS = {
  fcp_ms: "first-contentful-paint",
  lcp_ms: "largest-contentful-paint",
  tbt_ms: "total-blocking-time",
  cls: "cumulative-layout-shift",
  speed_index_ms: "speed-index",
} as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startChrome(): Promise<{ port: number; stop(): void }> {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), "putseller-lh-"));
  const child = spawn(
    CHROME,
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-extensions",
      "--disable-default-apps",
      "--metrics-recording-only",
      "--mute-audio",
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: "ignore" },
  );
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${CHROME} did not start`);
    await sleep(200);
  }
  return {
    port,
    stop() {
      child.kill("SIGKILL");
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

type Run = { performance: number } & Record<keyof typeof METRICS, number>;

const dataDir = await prepareStore();
const app = await startApp(dataDir);
const chrome = await startChrome();
const results: Record<string, unknown> = {};
try {
  for (const page of PAGES) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(`${app.url}${page.path}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance"],
        extraHeaders: page.signedIn ? { Cookie: app.cookie } : undefined,
      });
      if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const finalUrl = lhr.finalDisplayedUrl ?? "";
      if (!finalUrl.endsWith(page.path)) throw new Error(`${page.path} ended at ${finalUrl} (not signed in?)`);
      const run = { performance: Math.round((lhr.categories.performance?.score ?? 0) * 100) } as Run;
      for (const [key, audit] of Object.entries(METRICS) as [keyof typeof METRICS, string][]) {
        const value = lhr.audits[audit]?.numericValue ?? NaN;
        run[key] = key === "cls" ? Math.round(value * 1000) / 1000 : Math.round(value);
      }
      runs.push(run);
    }
    const summary = Object.fromEntries(
      (Object.keys(runs[0]!) as (keyof Run)[]).map((k) => [k, median(runs.map((r) => r[k]))]),
    );
    results[page.path] = { what: page.what, median: summary, runs };
    console.log(
      `${page.path.padEnd(14)} perf ${summary.performance}  FCP ${summary.fcp_ms} ms  LCP ${summary.lcp_ms} ms  ` +
        `TBT ${summary.tbt_ms} ms  CLS ${summary.cls}  SI ${summary.speed_index_ms} ms  (median of ${RUNS})`,
    );
  }
  const headline: Record<string, string> = {};
  for (const [path, value] of Object.entries(results)) {
    const m = (value as { median: Run }).median;
    headline[path] = `perf ${m.performance}, LCP ${m.lcp_ms} ms, TBT ${m.tbt_ms} ms, CLS ${m.cls}`;
  }
  report({
    headline,
    settings: "Lighthouse mobile preset, simulated throttling (default), performance category",
    lighthouse_runs_per_page: RUNS,
    pages: results,
    spa_mode: "not measurable: React Router refuses an ssr:false build of routes with server loaders/actions",
  });
} finally {
  chrome.stop();
  await app.stop();
}
