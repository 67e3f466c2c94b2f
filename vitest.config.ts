import { defineConfig } from "vitest/config";

/** Unit and integration tests. Browser tests are Playwright's (tests/e2e), not Vitest's. */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "provider",
          include: ["provider/**/*.test.ts", "contract/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "app",
          include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
