import { expect, test } from "./support/test.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";

/**
 * The app run against a separately started provider (PROVIDER_URL), as an operator would.
 * When the provider stops accepting the session's token (its secret was rotated), the next
 * page ends the session: the user lands on /login with the message of docs/product.md#errors-session.
 */
// Starting servers (and seeding a store), here and in the test itself, takes over a minute on a busy 2-core machine.
test.describe.configure({ timeout: 240_000 });

const ports = ownPorts();
const providerPort = ports.provider[0]!;
const appPort = ports.app[0]!;
const dataDir = tempDir("putseller-ext-");
let provider: Started;
let app: Started;

const providerEnv = (secret: string) => ({
  PROVIDER_PORT: String(providerPort),
  DATA_DIR: dataDir,
  SEED_DEMO: "true",
  PROVIDER_SECRET: secret,
});

test.beforeAll(async () => {
  provider = await startNode(
    "provider/main.ts",
    providerEnv("first-secret-first-secret-first-secret!"),
    `http://127.0.0.1:${providerPort}`,
  );
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_URL: `http://127.0.0.1:${providerPort}`,
      SESSION_SECRET: "external-provider-session-secret-0123456789",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATA_DIR: dataDir,
    },
    `http://localhost:${appPort}`,
  );
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.stop();
});

test("a token the provider no longer accepts ends the session with 'Session expired. Please log in again.'", async ({
  page,
}) => {
  await page.goto(`http://localhost:${appPort}/login`);
  await page.getByLabel("Username").fill("demo");
  await page.getByLabel("Password").fill("demo1234");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
  await page.evaluate(() => window.localStorage.setItem("userStocks", "[]"));

  await provider.stop();
  provider = await startNode(
    "provider/main.ts",
    providerEnv("second-secret-second-secret-second!!"),
    `http://127.0.0.1:${providerPort}`,
  );

  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Session expired. Please log in again.")).toBeVisible();
  // The storage is cleared by the page's scripts, which run after the message's first paint (ADR 0044).
  await expect.poll(() => page.evaluate(() => window.localStorage.length)).toBe(0);
  await page.goto(`http://localhost:${appPort}/user-stocks`);
  await expect(page).toHaveURL(/\/login/);
});
