/**
 * Lighthouse (mobile, default simulated throttling, performance only) on /login, /user-stocks
 * (50 rows), /uip-stocks (50 rows) and /insights (20 stocks, 1,000 options), signed in as the
 * bench trader where the page needs it: performance score, FCP, LCP, TBT, CLS and Speed Index,
 * median of RUNS (3) runs per page. Runs the system Chromium (CHROME_PATH, default
 * /usr/bin/chromium) headless without a sandbox; nothing is downloaded.
 *
 * Each page is measured twice in the same run, runs interleaved: server-rendered (the real build,
 * `node server.ts`) and in React Router's SPA mode (`ssr: false`, bench/spa: the same routes and
 * components; an empty HTML shell whose client loaders fetch the same data from the same app's
 * `.data` endpoint), served by bench/spa/serve.ts in front of that app with the same cookie and
 * data. Ratios are SPA ÷ SSR. The SPA build goes to SPA_BUILD_DIR (default `<BUILD_DIR>-spa`)
 * unless BENCH_SKIP_BUILD=1 finds one there.
 *
 *   npm run bench -- lighthouse      or      npx node bench/lighthouse.bench.ts (after both builds)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse from "lighthouse";
import { median, report } from "./report.ts";
import { prepareStore, startApp } from "./support/bench-app.ts";
import { freePort, root, sleep, startScript } from "./support/processes.ts";

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROME = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PAGES: { path: string; signedIn: boolean; what: string }[] = [
  { path: "/login", signedIn: false, what: "landing and sign-in" },
  { path: "/user-stocks", signedIn: true, what: "watchlist, 50 rows" },
  { path: "/uip-stocks", signedIn: true, what: "UIP list, 50 rows" },
  { path: "/insights", signedIn: true, what: "20 stocks, 1,000 options" },
];
const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const SPA_BUILD_DIR = process.env.SPA_BUILD_DIR ?? `${BUILD_DIR}-spa`;
const MODES = ["ssr", "spa"] as const;
type Mode = (typeof MODES)[number];
const METRICS = {
  fcp_ms: "first-contentful-paint",
  lcp_ms: "largest-contentful-paint",
  tbt_ms: "total-blocking-time",
  cls: "cumulative-layout-shift",
  speed_index_ms: "speed-index",
} as const;

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
  let failed: Error | null = null;
  child.once("error", (error) => (failed = error));
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (failed || child.exitCode !== null || Date.now() > deadline) {
      rmSync(profile, { recursive: true, force: true });
      throw new Error(`${CHROME} did not start${failed ? `: ${(failed as Error).message}` : ""}`);
    }
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

/** The SPA-mode build (bench/spa), fresh unless BENCH_SKIP_BUILD=1 finds one. */
function buildSpa(): void {
  const dir = join(root, SPA_BUILD_DIR);
  if (process.env.BENCH_SKIP_BUILD === "1" && existsSync(join(dir, "client/index.html"))) return;
  console.log(`SPA-mode build (bench/spa) into ${SPA_BUILD_DIR}`);
  // Vite does not empty a build folder outside its root (bench/spa).
  rmSync(dir, { recursive: true, force: true });
  const build = spawnSync(join(root, "node_modules/.bin/react-router"), ["build", "bench/spa"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, SPA_BUILD_DIR, NODE_ENV: "production" },
  });
  if (build.status !== 0 || !existsSync(join(dir, "client/index.html"))) throw new Error("the SPA-mode build failed");
}

/** bench/spa/serve.ts in its own process, as the app has its own: the SPA build in front of `appUrl`. */
async function startSpa(appUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const { stop } = await startScript(
    "bench/spa/serve.ts",
    {
      NODE_ENV: "production",
      SPA_CLIENT_DIR: join(root, SPA_BUILD_DIR, "client"),
      APP_URL: appUrl,
      PORT: String(port),
    },
    `${url}/login`,
    30_000,
  );
  return { url, stop };
}

type Run = {
  performance: number;
  dom_elements: number;
  observed_fcp_ms: number;
  observed_lcp_ms: number;
} & Record<keyof typeof METRICS, number>;

buildSpa();
// Chrome first: a missing browser ends the bench before any server is started.
const chrome = await startChrome();
const { app, spa } = await (async () => {
  const app = await startApp(await prepareStore());
  try {
    return { app, spa: await startSpa(app.url) };
  } catch (error) {
    await app.stop();
    throw error;
  }
})().catch((error: unknown) => {
  chrome.stop();
  throw error;
});
const origins: Record<Mode, string> = { ssr: app.url, spa: spa.url };
const results: Record<string, { what: string } & Record<Mode, { median: Run; runs: Run[] }> & { ratio: Ratio }> = {};
type Ratio = Record<keyof Run, number | null>;

async function measure(mode: Mode, page: (typeof PAGES)[number]): Promise<Run> {
  const result = await lighthouse(`${origins[mode]}${page.path}`, {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
    extraHeaders: page.signedIn ? { Cookie: app.cookie } : undefined,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${mode} ${page.path}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${mode} ${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const finalUrl = lhr.finalDisplayedUrl ?? "";
  if (!finalUrl.endsWith(page.path)) throw new Error(`${mode} ${page.path} ended at ${finalUrl} (not signed in?)`);
  const observed = (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0];
  const run = {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    // The same screen in both modes has the same elements: a check that the SPA rendered it all.
    dom_elements: lhr.audits["dom-size"]?.numericValue ?? NaN,
    // What the trace showed unthrottled on this machine; the figures above are Lighthouse's simulation of slow 4G.
    observed_fcp_ms: Math.round(observed?.observedFirstContentfulPaint ?? NaN),
    observed_lcp_ms: Math.round(observed?.observedLargestContentfulPaint ?? NaN),
  } as Run;
  for (const [key, audit] of Object.entries(METRICS) as [keyof typeof METRICS, string][]) {
    const value = lhr.audits[audit]?.numericValue ?? NaN;
    run[key] = key === "cls" ? Math.round(value * 1000) / 1000 : Math.round(value);
  }
  return run;
}

const summarize = (runs: Run[]) =>
  Object.fromEntries((Object.keys(runs[0]!) as (keyof Run)[]).map((k) => [k, median(runs.map((r) => r[k]))])) as Run;
const ratioOf = (spaValue: number, ssrValue: number) =>
  ssrValue === 0 ? null : Math.round((spaValue / ssrValue) * 100) / 100;

try {
  for (const page of PAGES) {
    const runs: Record<Mode, Run[]> = { ssr: [], spa: [] };
    // Interleaved, so a change in the machine's load falls on both modes alike.
    for (let i = 0; i < RUNS; i++) for (const mode of MODES) runs[mode].push(await measure(mode, page));
    const ssr = summarize(runs.ssr);
    const spaMedian = summarize(runs.spa);
    if (Math.abs(spaMedian.dom_elements - ssr.dom_elements) > 0.1 * ssr.dom_elements) {
      throw new Error(
        `${page.path}: the SPA page has ${spaMedian.dom_elements} elements, the SSR one ${ssr.dom_elements}`,
      );
    }
    const ratio = Object.fromEntries(
      (Object.keys(ssr) as (keyof Run)[]).map((k) => [k, ratioOf(spaMedian[k], ssr[k])]),
    ) as Ratio;
    results[page.path] = {
      what: page.what,
      ssr: { median: ssr, runs: runs.ssr },
      spa: { median: spaMedian, runs: runs.spa },
      ratio,
    };
    for (const [mode, m] of [
      ["SSR", ssr],
      ["SPA", spaMedian],
    ] as const) {
      console.log(
        `${page.path.padEnd(14)} ${mode} perf ${m.performance}  FCP ${m.fcp_ms} ms  LCP ${m.lcp_ms} ms  ` +
          `TBT ${m.tbt_ms} ms  CLS ${m.cls}  SI ${m.speed_index_ms} ms  ${m.dom_elements} elements  ` +
          `(observed FCP ${m.observed_fcp_ms} ms, LCP ${m.observed_lcp_ms} ms; median of ${RUNS})`,
      );
    }
    console.log(
      `${page.path.padEnd(14)} SPA ÷ SSR: perf ${ratio.performance}  FCP ${ratio.fcp_ms}  LCP ${ratio.lcp_ms}  TBT ${ratio.tbt_ms ?? "n/a"}`,
    );
  }
  const headline: Record<string, string> = {};
  for (const [path, value] of Object.entries(results)) {
    const { ssr, spa: spaRuns, ratio } = value;
    headline[path] =
      `perf ${ssr.median.performance} SSR / ${spaRuns.median.performance} SPA, ` +
      `LCP ${ssr.median.lcp_ms} / ${spaRuns.median.lcp_ms} ms (×${ratio.lcp_ms})`;
  }
  report({
    headline,
    settings: "Lighthouse mobile preset, simulated throttling (default), performance category",
    lighthouse_runs_per_page: RUNS,
    modes: {
      ssr: "the production build served by server.ts (server rendering, hydration)",
      spa: "React Router SPA mode (ssr: false) of the same routes, bench/spa; data from the same app's .data endpoint",
    },
    ratio: "SPA ÷ SSR of the medians (null where the SSR median is 0)",
    pages: results,
  });
} finally {
  chrome.stop();
  await spa.stop();
  await app.stop();
}
