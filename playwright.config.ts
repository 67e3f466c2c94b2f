import { defineConfig, devices } from "@playwright/test";

/**
 * Browser tests against the real production build, in the system Chromium (no browser download
 * is possible here). Two workers, each with its own app, embedded provider and fresh PGlite store,
 * started by the `workerApp` fixture of tests/e2e/support/test.ts on ports counted from E2E_PORT
 * and E2E_PROVIDER_PORT (ADR 0026); specs import `test` and `expect` from there.
 */

/**
 * The features Playwright 1.65 turns off itself (its `chromiumSwitches`). Chromium reads only the
 * last `--disable-features`, so ours repeats them: tests/integration/browser-flags.test.ts keeps the two equal.
 */
export const playwrightDisabledFeatures = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Chromium 156 opens two WebUI renderers for the address bar's popups in every window, headless
 * too: a third and a fourth process beside each test's page. Without them the browser suite
 * takes a fifth less CPU (docs/benchmarks.md, ADR 0048).
 */
const omniboxPopups = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  `--disable-features=${[...playwrightDisabledFeatures, ...omniboxPopups].join(",")}`,
];

export default defineConfig({
  testDir: "tests/e2e",
  // Separate output folders let several runs go side by side (PW_OUTPUT_DIR).
  outputDir: process.env.PW_OUTPUT_DIR ?? "test-results",
  // A file's tests stay together on one worker, in order; the files are shared out between the workers.
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    // Recording a trace for every test took a fifth of the suite's CPU (ADR 0062): in CI, where a
    // failed test is retried, only the retry records one; locally, with no retries, a failure keeps its.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: chromiumArgs,
    },
  },
  projects: [{ name: "mobile", use: { ...devices["Pixel 7"], browserName: "chromium" } }],
});
