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
    // A child process per file, not worker threads: PGlite's WebAssembly freed by one thread while
    // another compiles it crashed V8 in CI (docs/decisions/0067-vitest-back-to-a-process-per-file.md).
    pool: "forks",
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
