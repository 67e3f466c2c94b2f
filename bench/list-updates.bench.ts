/**
 * The browser's work when a list on screen changes without a navigation, in Chromium at 4× CPU
 * slowdown: script time per age-text tick ("5 minutes ago", every 30 s; ADR 0053) on /user-stocks
 * (50 rows) and /insights (20 cards), and per live quote (one ticker's new price over
 * /ws/stock-updates) on /user-stocks. Playwright's clock drives the ticks; the page's live socket is
 * answered by the bench (Playwright's routeWebSocket), silent but for the quotes it sends. The
 * figure is CDP's `ScriptDuration` over five changes a load, divided by five, median of ROUNDS
 * loads: what each change costs a slow phone's main thread. Compare two builds by running it on
 * each (`BUILD_DIR=…`).
 *
 *   npm run bench -- list-updates      or      npx node bench/list-updates.bench.ts (after the build)
 */
import type { Page, WebSocketRoute } from "@playwright/test";
import type { StockPriceUpdate } from "#contract/ws.ts";
import { WS_STOCK_UPDATES } from "#contract/ws-paths.ts";
import { median, report } from "./report.ts";
import { prepareStore, startApp } from "./support/bench-app.ts";
import { launchBenchBrowser, signedInContext } from "./support/bench-browser.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHANGES = 5;
const TICK_MS = 30_000;

interface Case {
  name: string;
  path: string;
  /** Makes one change happen on the page. */
  change(page: Page, socket: () => WebSocketRoute | null, n: number): Promise<void>;
}

const tick: Case["change"] = async (page) => {
  await page.clock.fastForward(TICK_MS);
};
const quote: Case["change"] = async (_page, socket, n) => {
  const ws = socket();
  if (!ws) throw new Error("the page opened no live socket");
  // One ticker of the bench trader's watchlist, a new price each time.
  const message: StockPriceUpdate = {
    type: "stock_price_update",
    data: { ticker: "AAPL", current_price: 150 + n, updated_at: new Date(Date.now() + n * 1000).toISOString() },
  };
  ws.send(JSON.stringify(message));
};

const CASES: Case[] = [
  { name: "/user-stocks tick", path: "/user-stocks", change: tick },
  { name: "/insights tick", path: "/insights", change: tick },
  { name: "/user-stocks quote", path: "/user-stocks", change: quote },
];

const app = await startApp(await prepareStore());
const browser = await launchBenchBrowser();
try {
  const perChange: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of CASES) {
      const context = await signedInContext(browser, app);
      const page = await context.newPage();
      let socket: WebSocketRoute | null = null;
      // The page's live sockets open and stay silent: only the bench moves the page.
      await page.routeWebSocket(/.*/, (ws) => {
        if (new URL(ws.url()).pathname === WS_STOCK_UPDATES) socket = ws;
      });
      await page.clock.install();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Performance.enable");
      await page.goto(app.url + c.path);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
      await page.waitForTimeout(2_000);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      const scriptSeconds = async () =>
        (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ScriptDuration")!.value;
      const before = await scriptSeconds();
      for (let n = 1; n <= CHANGES; n++) {
        await c.change(page, () => socket, n);
        await page.waitForTimeout(400);
      }
      const ms = ((await scriptSeconds()) - before) * 1000;
      (perChange[c.name] ??= []).push(Math.round((ms / CHANGES) * 10) / 10);
      await context.close();
    }
  }
  const medians = Object.fromEntries(CASES.map((c) => [c.name, median(perChange[c.name]!)]));
  for (const c of CASES) {
    console.log(
      `${c.name.padEnd(20)} ${medians[c.name]} ms of script each at 4x (runs ${perChange[c.name]!.join(", ")})`,
    );
  }
  report({
    headline: Object.fromEntries(CASES.map((c) => [`${c.name} ms`, medians[c.name]])),
    changes_per_load: CHANGES,
    rounds: ROUNDS,
    cpu_slowdown: 4,
    script_ms_per_change: perChange,
    median_ms_per_change: medians,
  });
} finally {
  await browser.close();
  await app.stop();
}
