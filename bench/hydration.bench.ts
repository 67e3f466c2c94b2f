/**
 * The browser's work to make a 50-row list page live, in Chromium at 4× CPU slowdown from the
 * navigation on: the blocking time the page itself observed (Long Tasks API: each task's time over
 * 50 ms, summed from the first contentful paint until 2 s after hydration, as Lighthouse's TBT
 * counts it but measured rather than simulated), the script time (CDP `ScriptDuration`), when
 * `html[data-hydrated]` appeared, and how many times React rendered a list row meanwhile (once a
 * row when nothing renders twice). Median of ROUNDS loads per page, the pages alternating. What it measures is issue 22's "hydration of long
 * lists must not block"; Lighthouse's TBT (bench/lighthouse.bench.ts) moves by ±100 ms between runs
 * on a shared 2-core machine, this by far less. Compare two builds by running it on each
 * (`BUILD_DIR=…`). BENCH_PAGES=/insights,/user-stocks measures other pages of the bench trader.
 *
 *   npm run bench -- hydration      or      npx node bench/hydration.bench.ts (after the build)
 */
import { median, report } from "./report.ts";
import { prepareStore, startApp } from "./support/bench-app.ts";
import { launchBenchBrowser, signedInContext } from "./support/bench-browser.ts";
import { loadAverage } from "./support/proc.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PAGES = process.env.BENCH_PAGES?.split(",") ?? ["/user-stocks", "/uip-stocks"];
const LONG_TASK_MS = 50;

interface Load {
  blockingMs: number;
  /** The main thread's busy time (CDP TaskDuration), and of it script, style and layout. */
  busyMs: number;
  scriptMs: number;
  styleMs: number;
  layoutMs: number;
  hydratedMs: number;
  /** List rows React rendered from the navigation until 2 s after hydration, and the rows shown. */
  rowRenders: number;
  rows: number;
}

const METRICS = {
  busyMs: "TaskDuration",
  scriptMs: "ScriptDuration",
  styleMs: "RecalcStyleDuration",
  layoutMs: "LayoutDuration",
} as const;

/**
 * Runs before the page's own scripts: collects long tasks, notes when hydration finished, and counts
 * the list rows React renders (a stand-in for React DevTools' hook, which React DOM reports every
 * commit to, production builds too). A row is a function component whose element is
 * \`<li class="stock-row">\`; it rendered in a commit if it is new or did work (flag PerformedWork),
 * and a subtree whose children the commit kept as they were did not render: DevTools' own rule.
 * A 50-row list that renders each row once at load counts 50 (ADR 0055's later note).
 */
const observe = `(() => {
  const seen = (window.__bench = { tasks: [], fcp: null, hydratedAt: null, rowRenders: 0 });
  const isRow = (f) => typeof f.type === "function" && f.child?.type === "li" &&
    String(f.child.memoizedProps?.className ?? "").split(" ").includes("stock-row");
  const rendered = (fiber) => {
    let n = 0;
    for (const stack = [fiber]; stack.length; ) {
      const f = stack.pop();
      if (isRow(f) && (f.alternate === null || (f.flags & 1) !== 0)) n++;
      if (f.alternate && f.child === f.alternate.child) continue;
      for (let c = f.child; c; c = c.sibling) stack.push(c);
    }
    return n;
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    inject: () => 1,
    onCommitFiberRoot: (_id, root) => { seen.rowRenders += rendered(root.current); },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) seen.tasks.push([e.startTime, e.duration]); })
    .observe({ type: "longtask", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntriesByName("first-contentful-paint")) seen.fcp = e.startTime;
  }).observe({ type: "paint", buffered: true });
  // (the document has no <html> element yet when this runs)
  new MutationObserver((_, observer) => {
    if (document.documentElement?.hasAttribute("data-hydrated")) { seen.hydratedAt = performance.now(); observer.disconnect(); }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
})()`;

/**
 * Total blocking time from the first contentful paint on, as Lighthouse counts it: each long task's
 * time over 50 ms, a task that began before the paint counted from the paint.
 */
function blockingAfter(fcp: number, tasks: [start: number, duration: number][]): number {
  return tasks.reduce((sum, [start, duration]) => {
    const counted = start >= fcp ? duration : start + duration - fcp;
    return sum + Math.max(0, counted - LONG_TASK_MS);
  }, 0);
}

const loadAtStart = loadAverage();
const app = await startApp(await prepareStore());
const browser = await launchBenchBrowser();
try {
  const loads: Record<string, Load[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of PAGES) {
      const context = await signedInContext(browser, app);
      const page = await context.newPage();
      // The live sockets open and stay silent: no quote moves the page while it is measured.
      await page.routeWebSocket(/.*/, () => {});
      await page.addInitScript(observe);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Performance.enable");
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      const durations = async () => {
        const { metrics } = await cdp.send("Performance.getMetrics");
        const seconds = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
        return Object.fromEntries(Object.entries(METRICS).map(([key, name]) => [key, seconds(name)])) as Record<
          keyof typeof METRICS,
          number
        >;
      };
      const before = await durations();
      await page.goto(app.url + path);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
      await page.waitForTimeout(2_000);
      const after = await durations();
      const spent = (key: keyof typeof METRICS) => Math.round((after[key] - before[key]) * 1000);
      const seen = await page.evaluate(
        () =>
          (
            window as unknown as {
              __bench: { tasks: [number, number][]; fcp: number; hydratedAt: number | null; rowRenders: number };
            }
          ).__bench,
      );
      const rows = await page.locator("li.stock-row").count();
      (loads[path] ??= []).push({
        blockingMs: Math.round(blockingAfter(seen.fcp, seen.tasks)),
        busyMs: spent("busyMs"),
        scriptMs: spent("scriptMs"),
        styleMs: spent("styleMs"),
        layoutMs: spent("layoutMs"),
        // (never hydrated within the wait: NaN, not a 0 that reads as instant)
        hydratedMs: seen.hydratedAt === null ? NaN : Math.round(seen.hydratedAt),
        rowRenders: seen.rowRenders,
        rows,
      });
      await context.close();
    }
  }
  const medians = Object.fromEntries(
    PAGES.map((path) => {
      const runs = loads[path]!;
      return [
        path,
        {
          blocking_ms: median(runs.map((r) => r.blockingMs)),
          busy_ms: median(runs.map((r) => r.busyMs)),
          script_ms: median(runs.map((r) => r.scriptMs)),
          style_ms: median(runs.map((r) => r.styleMs)),
          layout_ms: median(runs.map((r) => r.layoutMs)),
          hydrated_ms: median(runs.map((r) => r.hydratedMs)),
          row_renders: median(runs.map((r) => r.rowRenders)),
          rows: median(runs.map((r) => r.rows)),
        },
      ];
    }),
  );
  for (const path of PAGES) {
    const m = medians[path]!;
    console.log(
      `${path.padEnd(13)} blocking ${m.blocking_ms} ms (runs ${loads[path]!.map((r) => r.blockingMs).join(", ")})` +
        `   busy ${m.busy_ms} ms (script ${m.script_ms}, style ${m.style_ms}, layout ${m.layout_ms})` +
        `   hydrated at ${m.hydrated_ms} ms   ${m.row_renders} row renders for ${m.rows} rows`,
    );
  }
  report({
    headline: Object.fromEntries(
      PAGES.flatMap((path) => [
        [`${path} blocking ms`, medians[path]!.blocking_ms],
        [`${path} row renders`, medians[path]!.row_renders],
      ]),
    ),
    rounds: ROUNDS,
    cpu_slowdown: 4,
    load_average_at_start: loadAtStart,
    load_average_at_end: loadAverage(),
    medians,
    loads,
  });
} finally {
  await browser.close();
  await app.stop();
}
