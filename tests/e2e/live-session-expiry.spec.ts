import { expect, test } from "./support/test.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { signIn } from "./support/sign-in.ts";

/**
 * A session that ends while a page is open with live prices (ADR 0013): the app's relay closes the
 * page's socket with 4401 when the session's token expires, and the page goes to /login with
 * the message of docs/product.md#errors-session at once, instead of showing "Reconnecting…" to a socket that will be refused.
 * The app runs with the shortest token lifetime the provider accepts (60 s).
 */
test.describe.configure({ timeout: 150_000 });

const ports = ownPorts();
const appUrl = `http://localhost:${ports.app[0]}`;
let app: Started;

test.beforeAll(async () => {
  // Starting servers (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(ports.app[0]),
      PROVIDER_PORT: String(ports.provider[0]),
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
