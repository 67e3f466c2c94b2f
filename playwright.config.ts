import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * Browser tests against the real production build and the embedded provider on a
 * fresh PGlite store, in the system Chromium (no browser download is possible here).
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const PROVIDER_PORT = Number(process.env.E2E_PROVIDER_PORT ?? 8100);
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "putseller-e2e-"));

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export default defineConfig({
  testDir: "tests/e2e",
  // Separate output folders let several runs go side by side (PW_OUTPUT_DIR).
  outputDir: process.env.PW_OUTPUT_DIR ?? "test-results",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: chromiumArgs,
    },
  },
  projects: [{ name: "mobile", use: { ...devices["Pixel 7"], browserName: "chromium" } }],
  webServer: {
    command: "node server.ts",
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      PROVIDER_PORT: String(PROVIDER_PORT),
      DATA_DIR: process.env.E2E_DATA_DIR,
      SEED_DEMO: "true",
      SESSION_SECRET: "e2e-session-secret-e2e-session-secret-0123",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
    },
  },
});
