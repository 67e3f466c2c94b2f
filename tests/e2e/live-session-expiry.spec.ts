import { expect, test } from "@playwright/test";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { signIn } from "./support/sign-in.ts";

/**
 * A session that ends while a page is open with live prices (ADR 0013): the app's relay closes the
 * page's socket with 4401 when the session's token expires, and the page goes to /login with
 * SPEC.md's message at once, instead of showing "Reconnecting…" to a socket that will be refused.
 * The app runs with the shortest token lifetime the provider accepts (60 s).
 */
test.describe.configure({ timeout: 150_000 });

const base = Number(process.env.E2E_PORT ?? 3100) + 80;
const appUrl = `http://localhost:${base}`;
let app: Started;

test.beforeAll(async () => {
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(base),
      PROVIDER_PORT: String(base + 1),
      DATA_DIR: tempDir("putseller-expiry-"),
      SEED_DEMO: "true",
      SESSION_SECRET: "session-expiry-secret-0123456789abcdefghij",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      COOKIE_SECURE: "false",
      TOKEN_TTL_SECONDS: "60",
    },
    appUrl,
  );
});

test.afterAll(async () => {
  await app?.stop();
});

test("an open watchlist goes to /login with 'Session expired' when its session ends", async ({ page }) => {
  await signIn(page, "demo", "demo1234", appUrl);
  await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Live$/ })).toBeVisible();

  // Nothing is touched: the page itself notices the end of its session (the token lives 60 s;
  // before, the page kept retrying its socket and never left).
  await expect(page).toHaveURL(/\/login/, { timeout: 90_000 });
  await expect(page.getByText("Session expired. Please log in again.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
});
