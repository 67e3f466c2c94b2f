import { rmSync } from "node:fs";
import { expect, test as base } from "@playwright/test";
import { workerAppUrl, workerPorts } from "./ports.ts";
import { startNode, tempDir } from "./processes.ts";

/**
 * The `test` and `expect` every browser spec imports (ADR 0026). Each Playwright worker starts
 * its own app — the real build, `node server.ts` in production with its embedded provider and the
 * demo data — on its own ports (tests/e2e/support/ports.ts) and a fresh PGlite store in a folder
 * of its own, and stops it when the worker ends. `baseURL` points at it, so `page.goto("/login")`
 * and `request` reach this worker's app, and `embeddedProviderUrl()` its provider.
 *
 * Files run one after another on a worker, in any split between the workers, and a failed test
 * is retried in a new worker with a new store: a spec may read the demo data but must leave it
 * as it found it, and must not count on another file having run before it.
 */
export interface WorkerApp {
  /** The app's origin, e.g. http://localhost:3100. */
  url: string;
  /** Its embedded provider, e.g. http://127.0.0.1:8100. */
  providerUrl: string;
}

/** The session secret of the worker apps (the Google sign-in app shares it: a session from one is read by the other). */
export const E2E_SESSION_SECRET = "e2e-session-secret-e2e-session-secret-0123";

export const test = base.extend<object, { workerApp: WorkerApp }>({
  workerApp: [
    // Playwright reads a fixture's first parameter as a destructuring pattern, even an empty one.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { app, provider } = workerPorts();
      const dataDir = tempDir("putseller-e2e-");
      const started = await startNode(
        "server.ts",
        {
          NODE_ENV: "production",
          PORT: String(app),
          PROVIDER_PORT: String(provider),
          DATA_DIR: dataDir,
          SEED_DEMO: "true",
          // Specs share this app and its demo traders: the per-trader work limits have their own spec.
          GENERATIONS_PER_MINUTE: "100000",
          AI_TEXTS_PER_MINUTE: "100000",
          IMPORTS_PER_MINUTE: "100000",
          // The specs compare prices read from the provider with the page: no refresh under them (ADR 0037).
          DEMO_LIVE_PRICES: "false",
          // The specs start from the demo trader's empty journal; the demo's own journal has its test (provider/db/demo-journal.test.ts).
          DEMO_JOURNAL: "false",
          SESSION_SECRET: E2E_SESSION_SECRET,
          BUILD_DIR: process.env.BUILD_DIR ?? "build",
        },
        workerAppUrl(),
      );
      await use({ url: started.url, providerUrl: `http://127.0.0.1:${provider}` });
      await started.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    // A worker app is up in about 5 s on a 2-core machine; the limit allows for one the
    // other worker, a Firebase emulator and CI's other steps keep busy.
    { scope: "worker", timeout: 240_000 },
  ],
  // (`provide` is the fixture's `use`, named so the React hooks lint does not take it for a hook.)
  baseURL: async ({ workerApp }, provide) => provide(workerApp.url),
});

export { expect };
