/**
 * Lighthouse (mobile, default simulated throttling, performance only) on /login, /user-stocks
 * (50 rows), /uip-stocks (50 rows) and /insights (20 stocks, 1,000 options), signed in as the
 * bench trader where the page needs it: performance score, FCP, LCP, TBT, CLS and Speed Index,
 * median of RUNS (3) runs per page. Runs the system Chromium (CHROME_PATH, default
 * /usr/bin/chromium) headless without a sandbox; nothing is downloaded.
 *
 * Each page is measured in the same run, runs interleaved, as:
 *
 * - `ssr`: the real build (`node server.ts`), through bench/script-free/serve.ts unchanged;
 * - `script-free`: the same server-rendered HTML with its scripts and modulepreloads removed,
 *   through the same proxy on a second port (issue 22): what a browser paints with no JavaScript.
 *   The headline ratio is LCP ssr ÷ script-free (goal ≤ 1.3);
 * - `spa`, only with BENCH_LIGHTHOUSE_SPA=1: React Router's SPA mode (`ssr: false`, bench/spa: the
 *   same routes and components; an empty HTML shell whose client loaders fetch the same data from
 *   the same app's `.data` endpoint), served by bench/spa/serve.ts in front of that app. Its ratios
 *   are SPA ÷ SSR. The SPA build goes to SPA_BUILD_DIR (default `<BUILD_DIR>-spa`) unless
 *   BENCH_SKIP_BUILD=1 finds one there.
 *
 * BENCH_PAGES=/login,/insights measures only those pages.
 *
 * BENCH_LIGHTHOUSE_REPORTS=<folder> also writes each run's whole report there (`ssr-user-stocks-1.json`),
 * for what the figures do not say: the long tasks, each script's time, the main thread's breakdown.
 *
 *   npm run bench -- lighthouse      or      npx node bench/lighthouse.bench.ts (after the build)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse from "lighthouse";
import { median, report } from "./report.ts";
import { prepareStore, startApp } from "./support/bench-app.ts";
import { freePort, root, sleep, startScript } from "./support/processes.ts";
import { stripScripts } from "./script-free/strip-scripts.ts";

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROME = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ALL_PAGES: { path: string; signedIn: boolean; what: string }[] = [
  { path: "/login", signedIn: false, what: "landing and sign-in" },
  { path: "/user-stocks", signedIn: true, what: "watchlist, 50 rows" },
  { path: "/uip-stocks", signedIn: true, what: "UIP list, 50 rows" },
  { path: "/insights", signedIn: true, what: "20 stocks, 1,000 options" },
];
const wanted = process.env.BENCH_PAGES?.split(",");
const PAGES = wanted ? ALL_PAGES.filter((p) => wanted.includes(p.path)) : ALL_PAGES;
const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const SPA_BUILD_DIR = process.env.SPA_BUILD_DIR ?? `${BUILD_DIR}-spa`;
const WITH_SPA = process.env.BENCH_LIGHTHOUSE_SPA === "1";
const REPORTS = process.env.BENCH_LIGHTHOUSE_REPORTS;
type Mode = "ssr" | "script-free" | "spa";
const MODES: Mode[] = WITH_SPA ? ["ssr", "script-free", "spa"] : ["ssr", "script-free"];
const METRICS = {
  fcp_ms: "first-contentful-paint",
  lcp_ms: "largest-contentful-paint",
  tbt_ms: "total-blocking-time",
  cls: "cumulative-layout-shift",
  speed_index_ms: "speed-index",
} as const;

async function startChrome(): Promise<{ port: number; stop(): Promise<void> }> {
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
      // Chromium's address-bar popups are pages of their own in every window (ADR 0048).
      "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
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
    // Chrome's helper processes may still write to the profile just after it is killed (a run once
    // failed with ENOTEMPTY here, after printing every figure): wait for it, and retry the removal.
    async stop() {
      const exited = child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
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

/** bench/script-free/serve.ts in its own process: the real page and its script-free copy, both proxied. */
async function startScriptFree(appUrl: string): Promise<{ real: string; free: string; stop(): Promise<void> }> {
  const [realPort, freePort_] = [await freePort(), await freePort()];
  const real = `http://localhost:${realPort}`;
  const free = `http://localhost:${freePort_}`;
  const { stop } = await startScript(
    "bench/script-free/serve.ts",
    { APP_URL: appUrl, REAL_PORT: String(realPort), FREE_PORT: String(freePort_) },
    `${free}/login`,
    30_000,
  );
  return { real, free, stop };
}

type Run = {
  performance: number;
  dom_elements: number;
  observed_fcp_ms: number;
  observed_lcp_ms: number;
} & Record<keyof typeof METRICS, number>;

if (WITH_SPA) buildSpa();
// Chrome first: a missing browser ends the bench before any server is started.
const chrome = await startChrome();
const { app, proxies, spa } = await (async () => {
  const app = await startApp(await prepareStore());
  try {
    const proxies = await startScriptFree(app.url);
    try {
      return { app, proxies, spa: WITH_SPA ? await startSpa(app.url) : null };
    } catch (error) {
      await proxies.stop();
      throw error;
    }
  } catch (error) {
    await app.stop();
    throw error;
  }
})().catch(async (error: unknown) => {
  await chrome.stop();
  throw error;
});
const origins: Record<Mode, string> = { ssr: proxies.real, "script-free": proxies.free, spa: spa?.url ?? "" };
type Ratio = Record<keyof Run, number | null>;
type PageResult = { what: string; modes: Partial<Record<Mode, { median: Run; runs: Run[] }>> } & {
  /** ssr ÷ script-free: what the scripts cost (issue 22). */
  ratio_to_script_free: Ratio;
  /** spa ÷ ssr, with BENCH_LIGHTHOUSE_SPA=1. */
  ratio_spa?: Ratio;
};
const results: Record<string, PageResult> = {};

/** How many elements the server's HTML of a page holds (script elements taken out first if asked). */
async function serverElements(origin: string, page: (typeof PAGES)[number], strip: boolean): Promise<number> {
  const response = await fetch(`${origin}${page.path}`, { headers: page.signedIn ? { cookie: app.cookie } : {} });
  if (!response.ok) throw new Error(`${origin}${page.path} answered ${response.status}`);
  const html = await response.text();
  return (strip ? stripScripts(html) : html).match(/<[a-z][a-z0-9-]*[\s>/]/gi)?.length ?? 0;
}

/** Lighthouse's own trace failures, which it says to run again for (NO_NAVSTART: 4 times in about 160 runs on 2026-11-27). */
const RETRIED = new Set(["NO_NAVSTART", "NO_FCP", "NO_TRACING_STARTED"]);

async function measure(mode: Mode, page: (typeof PAGES)[number], attempt = 1): Promise<Run> {
  const result = await lighthouse(`${origins[mode]}${page.path}`, {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
    extraHeaders: page.signedIn ? { Cookie: app.cookie } : undefined,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${mode} ${page.path}`);
  const { lhr } = result;
  if (lhr.runtimeError && RETRIED.has(lhr.runtimeError.code) && attempt < 3) {
    console.error(`${mode} ${page.path}: ${lhr.runtimeError.code}, measured again`);
    return measure(mode, page, attempt + 1);
  }
  if (lhr.runtimeError) throw new Error(`${mode} ${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (REPORTS) {
    mkdirSync(REPORTS, { recursive: true });
    const name = `${mode}-${page.path.slice(1).replace(/\W+/g, "-")}`;
    let n = 1;
    while (existsSync(join(REPORTS, `${name}-${n}.json`))) n++;
    writeFileSync(join(REPORTS, `${name}-${n}.json`), JSON.stringify(lhr));
  }
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
const ratioOf = (value: number, divisor: number) => (divisor === 0 ? null : Math.round((value / divisor) * 100) / 100);

const ratioOf_ = (a: Run, b: Run) =>
  Object.fromEntries((Object.keys(a) as (keyof Run)[]).map((k) => [k, ratioOf(a[k], b[k])])) as Ratio;
const line = (m: Run) =>
  `perf ${m.performance}  FCP ${m.fcp_ms} ms  LCP ${m.lcp_ms} ms  TBT ${m.tbt_ms} ms  CLS ${m.cls}  ` +
  `SI ${m.speed_index_ms} ms  ${m.dom_elements} elements  (observed FCP ${m.observed_fcp_ms} ms, ` +
  `LCP ${m.observed_lcp_ms} ms; median of ${RUNS})`;

try {
  for (const page of PAGES) {
    const runs = Object.fromEntries(MODES.map((m) => [m, [] as Run[]])) as Record<Mode, Run[]>;
    // Interleaved, so a change in the machine's load falls on every mode alike.
    for (let i = 0; i < RUNS; i++) for (const mode of MODES) runs[mode].push(await measure(mode, page));
    const medians = Object.fromEntries(MODES.map((m) => [m, summarize(runs[m])])) as Record<Mode, Run>;
    const ssr = medians.ssr;
    const free = medians["script-free"];
    // The copy is the same page: the two servers' HTML has the same elements once the real one's
    // scripts are taken out too. (Compared before any script runs: the hydrated page has elements
    // only the scripts add, such as each list row's swipe reveals, ADR 0045.)
    const [realElements, freeElements] = await Promise.all([
      serverElements(proxies.real, page, true),
      serverElements(proxies.free, page, false),
    ]);
    if (Math.abs(realElements - freeElements) > 0.01 * realElements) {
      throw new Error(
        `${page.path}: the script-free copy's HTML has ${freeElements} elements, the page's ${realElements}`,
      );
    }
    if (WITH_SPA && Math.abs(medians.spa.dom_elements - ssr.dom_elements) > 0.1 * ssr.dom_elements) {
      throw new Error(
        `${page.path}: the SPA page has ${medians.spa.dom_elements} elements, the SSR one ${ssr.dom_elements}`,
      );
    }
    const ratio = ratioOf_(ssr, free);
    results[page.path] = {
      what: page.what,
      modes: Object.fromEntries(MODES.map((m) => [m, { median: medians[m], runs: runs[m] }])),
      ratio_to_script_free: ratio,
      ...(WITH_SPA ? { ratio_spa: ratioOf_(medians.spa, ssr) } : {}),
    };
    for (const mode of MODES) console.log(`${page.path.padEnd(14)} ${mode.padEnd(11)} ${line(medians[mode])}`);
    console.log(
      `${page.path.padEnd(14)} SSR ÷ script-free: LCP ${ratio.lcp_ms}  FCP ${ratio.fcp_ms}  perf ${ratio.performance}` +
        (WITH_SPA ? `; SPA ÷ SSR: LCP ${results[page.path]!.ratio_spa!.lcp_ms}` : ""),
    );
  }
  const headline: Record<string, string> = {};
  for (const [path, value] of Object.entries(results)) {
    const ssr = value.modes.ssr!.median;
    const free = value.modes["script-free"]!.median;
    headline[path] =
      `perf ${ssr.performance}, TBT ${ssr.tbt_ms} ms, LCP ${ssr.lcp_ms} ms / script-free ${free.lcp_ms} ms ` +
      `(×${value.ratio_to_script_free.lcp_ms})`;
  }
  report({
    headline,
    settings: "Lighthouse mobile preset, simulated throttling (default), performance category",
    lighthouse_runs_per_page: RUNS,
    modes: {
      ssr: "the production build served by server.ts (server rendering, hydration), through bench/script-free/serve.ts",
      "script-free": "the same server-rendered HTML without scripts or modulepreloads, same proxy, second port",
      ...(WITH_SPA
        ? {
            spa: "React Router SPA mode (ssr: false) of the same routes, bench/spa; data from the same app's .data endpoint",
          }
        : {}),
    },
    ratio: "ratio_to_script_free: SSR ÷ script-free of the medians; ratio_spa: SPA ÷ SSR (null where the divisor is 0)",
    pages: results,
  });
} finally {
  await chrome.stop();
  await spa?.stop();
  await proxies.stop();
  await app.stop();
}
