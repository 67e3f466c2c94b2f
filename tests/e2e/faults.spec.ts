import { expect, test } from "./support/test.ts";
import { messages } from "#app/lib/messages.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { createTrader, signInAs } from "./support/watchlist.ts";

/**
 * The provider stops while the web app runs: each screen says what docs/product.md#states-data, #errors says when its
 * data cannot be loaded, the app keeps serving pages, and once the provider is back the same
 * session carries on without signing in again.
 */
const ports = ownPorts();
const providerPort = ports.provider[0]!;
const appPort = ports.app[0]!;
const dataDir = tempDir("putseller-faults-");
const app = `http://localhost:${appPort}`;
let provider: Started | undefined;
let web: Started | undefined;

const startProvider = () =>
  startNode(
    "provider/main.ts",
    {
      PROVIDER_PORT: String(providerPort),
      DATA_DIR: dataDir,
      // No demo data: a fresh store starts seconds faster; the test registers its own trader.
      SEED_DEMO: "false",
      PROVIDER_SECRET: "faults-provider-secret-faults-provider-0123",
    },
    `http://127.0.0.1:${providerPort}`,
  );

test.beforeAll(async () => {
  // Starting servers (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  provider = await startProvider();
  web = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_URL: `http://127.0.0.1:${providerPort}`,
      SESSION_SECRET: "faults-session-secret-faults-session-secret-01",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATA_DIR: dataDir,
    },
    app,
  );
});

test.afterAll(async () => {
  await web?.stop();
  await provider?.stop();
});

test("with the provider down, screens show the texts of docs/product.md and the app keeps serving; after a restart the session carries on", async ({
  page,
  browser,
}) => {
  // The provider is stopped and started again inside the test: slow on a busy 2-core machine.
  test.setTimeout(240_000);
  const trader = await createTrader(["AAPL", "KO"], `http://127.0.0.1:${providerPort}`);
  await signInAs(page, trader, app);
  await expect(page.getByText("AAPL").first()).toBeVisible();

  await provider!.stop();

  const screens: [string, string][] = [
    ["/user-stocks", messages.fetchUserStocksFailed],
    ["/uip-stocks", messages.fetchUipStocksFailed],
    ["/insights", messages.fetchTopLineFailed],
  ];
  for (const [path, text] of screens) {
    const response = await page.goto(`${app}${path}`);
    expect(response?.status(), path).toBeLessThan(500);
    await expect(page.getByText(text), path).toBeVisible();
    await expect(page, path).toHaveURL(`${app}${path}`); // still signed in
  }

  // The app itself keeps serving: its health says which half is down, pages and assets load.
  const health = await page.request.get(`${app}/healthz`);
  expect(health.status()).toBe(503);
  expect(await health.json()).toEqual({ app: "ok", provider: "down" });

  // Someone signing in meanwhile is told about the network, and keeps what they typed.
  const other = await browser.newContext();
  const login = await other.newPage();
  await login.goto(`${app}/login`);
  await login.getByLabel("Username").fill(trader.username);
  await login.getByLabel("Password").fill(trader.password);
  await login.getByRole("button", { name: "Sign In" }).click();
  await expect(login.getByText(messages.network)).toBeVisible();
  await expect(login.getByLabel("Username")).toHaveValue(trader.username);
  await other.close();

  provider = await startProvider();
  await page.goto(`${app}/user-stocks`);
  await expect(page).toHaveURL(`${app}/user-stocks`);
  await expect(page.getByText(messages.fetchUserStocksFailed)).toHaveCount(0);
  await expect(page.getByText("AAPL").first()).toBeVisible();
  await page.goto(`${app}/uip-stocks`);
  await expect(page.getByRole("heading", { name: "UIP Stocks" })).toBeVisible();
  await expect(page.getByText(messages.fetchUipStocksFailed)).toHaveCount(0);
  expect((await page.request.get(`${app}/healthz`)).status()).toBe(200);
});
