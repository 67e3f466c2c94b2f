/**
 * The browser's work when the age texts move on ("5 minutes ago", every 30 s; ADR 0053): script
 * time per tick on /user-stocks (50 rows) and /insights (20 cards), in Chromium at 4× CPU slowdown.
 * Playwright's clock drives the ticks (five per load, ROUNDS loads per page); the live socket opens
 * but stays silent, so that only the clock moves the page. The figure is CDP's `ScriptDuration` over the
 * ticks, divided by their number: it counts what a tick costs a slow phone's main thread. Compare
 * two builds by running it on each (`BUILD_DIR=…`).
 *
 *   npm run bench -- age-tick      or      npx node bench/age-tick.bench.ts (after the build)
 */
import { chromium } from "@playwright/test";
import { chromiumArgs } from "../playwright.config.ts";
import { median, report } from "./report.ts";
import { prepareStore, startApp } from "./support/bench-app.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TICKS = 5;
const TICK_MS = 30_000;
const PAGES = ["/user-stocks", "/insights"] as const;

const app = await startApp(await prepareStore());
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: chromiumArgs,
});
try {
  const perTick: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of PAGES) {
      const context = await browser.newContext({ viewport: { width: 412, height: 915 }, serviceWorkers: "block" });
      const [name, value] = app.cookie.split(";")[0]!.split("=");
      await context.addCookies([{ name: name!, value: value!, url: app.url }]);
      const page = await context.newPage();
      // A socket that opens and stays silent: the page is live, but no quote moves it.
      await page.routeWebSocket(/.*/, () => {});
      await page.clock.install();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Performance.enable");
      await page.goto(app.url + path);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
      await page.waitForTimeout(2_000);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      const scriptSeconds = async () =>
        (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ScriptDuration")!.value;
      const before = await scriptSeconds();
      for (let tick = 0; tick < TICKS; tick++) {
        await page.clock.fastForward(TICK_MS);
        await page.waitForTimeout(400);
      }
      const ms = ((await scriptSeconds()) - before) * 1000;
      (perTick[path] ??= []).push(Math.round((ms / TICKS) * 10) / 10);
      await context.close();
    }
  }
  const medians = Object.fromEntries(PAGES.map((p) => [p, median(perTick[p]!)]));
  for (const p of PAGES)
    console.log(`${p.padEnd(14)} ${medians[p]} ms of script per tick at 4x (runs ${perTick[p]!.join(", ")})`);
  report({
    headline: Object.fromEntries(PAGES.map((p) => [`${p} ms/tick`, medians[p]])),
    ticks_per_load: TICKS,
    rounds: ROUNDS,
    cpu_slowdown: 4,
    script_ms_per_tick: perTick,
    median_ms_per_tick: medians,
  });
} finally {
  await browser.close();
  await app.stop();
}
