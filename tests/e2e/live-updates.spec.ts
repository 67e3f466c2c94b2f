import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { WS_STOCK_UPDATES } from "#contract/ws.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";

/**
 * Live prices through the real build (docs/product.md#states-live): the app (server.ts) runs against
 * its own provider process (tests/e2e/support/live-provider.ts), whose price job the test drives.
 * A price the provider publishes reaches an open watchlist without a reload; an invalid message
 * changes nothing; after the provider is killed and started again the page reconnects and resumes.
 */
test.describe.configure({ timeout: 120_000 });

const ports = ownPorts();
const providerPort = ports.provider[0]!;
const appPort = ports.app[0]!;
const controlPort = ports.provider[1]!;
const dataDir = tempDir("putseller-live-");
const appUrl = `http://localhost:${appPort}`;
let provider: Started;
let app: Started;

const startProvider = () =>
  startNode(
    "tests/e2e/support/live-provider.ts",
    {
      PROVIDER_PORT: String(providerPort),
      CONTROL_PORT: String(controlPort),
      DATA_DIR: dataDir,
      PROVIDER_SECRET: "live-updates-provider-secret-0123456789",
    },
    `http://127.0.0.1:${providerPort}`,
  );

async function control(path: "/price" | "/publish", body: unknown) {
  const response = await fetch(`http://127.0.0.1:${controlPort}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  expect(response.status, await response.text()).toBe(204);
}

test.beforeAll(async () => {
  // Starting servers (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  provider = await startProvider();
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_URL: `http://127.0.0.1:${providerPort}`,
      SESSION_SECRET: "live-updates-session-secret-0123456789abc",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATA_DIR: dataDir,
      COOKIE_SECURE: "false",
    },
    appUrl,
  );
});

test.afterAll(async () => {
  await app?.stop();
  if (provider?.process.exitCode === null) provider.process.kill("SIGKILL");
});

async function openWatchlist(page: Page) {
  await page.goto(`${appUrl}/login`);
  await page.getByLabel("Username").fill("demo");
  await page.getByLabel("Password").fill("demo1234");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Live$/ })).toBeVisible();
  // Marks this document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
}

const marker = (page: Page) => page.evaluate(() => (window as unknown as { marker?: number }).marker);
const aaplPrice = (page: Page) => page.locator('li[data-ticker="AAPL"] .price');
const allPrices = (page: Page) => page.locator(".stock-row .price").allTextContents();

test("a price the provider publishes appears in the open watchlist, coloured and aged, without a reload", async ({
  page,
}) => {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  await openWatchlist(page);

  // Far below the row's average IV: green (docs/product.md#screens-watchlist).
  await control("/price", { ticker: "AAPL", price: 1.25 });
  await expect(aaplPrice(page)).toHaveText("1.25");
  await expect(aaplPrice(page)).toHaveClass(/price--green/);
  await expect(page.locator('li[data-ticker="AAPL"] .age')).toHaveText(/seconds? ago/);

  // Above it: grey.
  await control("/price", { ticker: "AAPL", price: 99_999.5 });
  await expect(aaplPrice(page)).toHaveText(/99,?999\.50/);
  await expect(aaplPrice(page)).toHaveClass(/price--grey/);
  expect(await marker(page)).toBe(42);
  // The CSP's connect-src 'self' let the same-origin websocket through (no violation reported).
  expect(problems.filter((p) => /Content Security Policy|Refused to connect/i.test(p))).toEqual([]);
});

test("an invalid message changes nothing and is logged", async ({ page }) => {
  const warnings: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "warning") warnings.push(m.text());
  });
  await openWatchlist(page);
  const before = await allPrices(page);
  for (const message of [
    { type: "stock_price_update", data: { ticker: "AAPL" } },
    { type: "stock_price_update", data: [{ current_price: 5, updated_at: new Date().toISOString() }] },
    { type: "stock_price_update" },
  ]) {
    await control("/publish", { channel: "stock_updates", message });
  }
  await expect.poll(() => warnings.filter((w) => w.includes("ignored an invalid message")).length).toBe(3);
  expect(warnings[0]).toContain(WS_STOCK_UPDATES);
  expect(await allPrices(page)).toEqual(before);
  await expect(page.getByRole("status").filter({ hasText: /^Live$/ })).toBeVisible();
});

test("when the provider is killed and started again, the page reconnects and updates resume", async ({ page }) => {
  await openWatchlist(page);
  provider.process.kill("SIGKILL");
  await expect(page.getByRole("status").filter({ hasText: "Reconnecting…" })).toBeVisible({ timeout: 15_000 });

  provider = await startProvider();
  await expect(page.getByRole("status").filter({ hasText: /^Live$/ })).toBeVisible({ timeout: 30_000 });
  await control("/price", { ticker: "AAPL", price: 77.7 });
  await expect(aaplPrice(page)).toHaveText("77.70");
  expect(await marker(page)).toBe(42);
});
