import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** Every in-memory store of a run starts from one migrated image (tests/support/pglite-image.global.ts). */
const globalSetup = ["tests/support/pglite-image.global.ts"];

/** Unit and integration tests. Browser tests are Playwright's (tests/e2e), not Vitest's. */
export default defineConfig({
  test: {
    // One test file per core. Vitest leaves a core to itself by default, which on CI's two cores
    // ran the files one at a time while many of them wait on sockets and child processes.
    maxWorkers: availableParallelism(),
    // Worker threads, not a child process per file: the whole run took 132 s instead of 163–176 s
    // and a quarter less CPU (docs/decisions/0063-vitest-files-in-worker-threads.md).
    pool: "threads",
    projects: [
      {
        test: {
          name: "provider",
          include: ["provider/**/*.test.ts", "contract/**/*.test.ts"],
          environment: "node",
          globalSetup,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "app",
          include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
