import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { holdScripts } from "./support/hydration.ts";
import { signIn } from "./support/sign-in.ts";
import { FAKE_TRADIER_TOKEN, startTradierFake, type TradierFake } from "#provider/market/testing/tradier-fake.ts";

/**
 * Issue 43, broker sync: an app whose embedded provider reaches a local fake of Tradier's account
 * API (TRADIER_BROKERAGE_URL). The trader connects with a token, syncs, sees the account's wheel on
 * Trades, syncs again ("Nothing new") and removes the connection; a refused token is named and
 * never put back in the field. The forms work before the scripts arrive (holdScripts) and after.
 */
test.describe.configure({ timeout: 180_000, mode: "serial" });

const ports = ownPorts();
const appUrl = `http://localhost:${ports.app[0]!}`;
let fake: TradierFake;
let app: Started;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fake = await startTradierFake();
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(ports.app[0]!),
      PROVIDER_PORT: String(ports.provider[0]!),
      DATA_DIR: tempDir("putseller-broker-"),
      SEED_DEMO: "true",
      DEMO_JOURNAL: "false",
      DEMO_LIVE_PRICES: "false",
      SESSION_SECRET: "broker-sync-session-secret-broker-sync-0123456789",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      TRADIER_BROKERAGE_URL: fake.baseUrl,
      IMPORTS_PER_MINUTE: "100000",
    },
    appUrl,
  );
});

test.afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

async function heldPage(browser: Browser): Promise<{ page: Page; close(): Promise<void> }> {
  // No service worker: it would answer the scripts from its cache, past holdScripts.
  const context = await browser.newContext({ serviceWorkers: "block", baseURL: appUrl });
  const page = await context.newPage();
  await signIn(page, "demo", "demo1234", appUrl);
  return { page, close: () => context.close() };
}

test("a refused token is named, and the field is empty again", async ({ browser }) => {
  const { page, close } = await heldPage(browser);
  await page.goto(`${appUrl}/broker`);
  await page.getByLabel("Tradier access token").fill("not-my-token");
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByText("Tradier refused the token: connect again with a new access token")).toBeVisible();
  await expect(page.getByLabel("Tradier access token")).toHaveValue("");
  await expect(page.getByLabel("Tradier access token")).toHaveAttribute("type", "password");
  await close();
});

test("connect, sync, see the trades, sync again, remove — before the scripts arrive", async ({ browser }) => {
  const { page, close } = await heldPage(browser);
  const release = await holdScripts(page);
  await page.goto(`${appUrl}/import-trades`, { waitUntil: "domcontentloaded" });
  await page.getByRole("link", { name: "sync your account instead" }).click();
  await expect(page.getByRole("heading", { name: "Connect Tradier" })).toBeVisible();

  await page.getByLabel("Tradier access token").fill(FAKE_TRADIER_TOKEN);
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByRole("heading", { name: "Tradier account ••••1111" })).toBeVisible();
  expect(await page.content()).not.toContain(FAKE_TRADIER_TOKEN);

  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("broker-last-result")).toHaveText(
    "6 trades added, 0 already there, 3 lines not trades",
  );

  await page.goto(`${appUrl}/portfolio`, { waitUntil: "domcontentloaded" });
  // The account's wheel: the put sold on 11-02 open, the assigned shares held, one KO cycle since
  // 09-01, and the year's premium 109.65 + 79.65 + 94.65 (net of $0.35 commissions).
  await expect(page.getByRole("listitem", { name: "Short KO 62.5 put · exp 18 Dec 2026" })).toBeVisible();
  await expect(page.getByRole("listitem", { name: "KO shares" })).toContainText("100 shares of KO");
  await expect(page.getByRole("listitem", { name: "KO cycle from 1 Sept 2026" })).toContainText("$283.95");

  await page.goto(`${appUrl}/broker`, { waitUntil: "domcontentloaded" });
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("broker-last-result")).toHaveText(/^Nothing new, /);

  await page.getByRole("button", { name: "Remove Tradier connection" }).click();
  await expect(page.getByRole("heading", { name: "Connect Tradier" })).toBeVisible();
  release();
  await close();
});

test("with scripts: the import screen links here, and a sync's toast counts what it found", async ({ browser }) => {
  const { page, close } = await heldPage(browser);
  await page.goto(`${appUrl}/import-trades`);
  await page.getByRole("link", { name: "sync your account instead" }).click();
  await expect(page).toHaveURL(/\/broker$/);
  await page.getByLabel("Tradier access token").fill(FAKE_TRADIER_TOKEN);
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByText("Tradier connected: account ••••1111")).toBeVisible();
  await page.getByRole("button", { name: "Sync now" }).click();
  // The journal kept the trades of the sync before: this one finds them all.
  await expect(page.getByText(/^Nothing new, 6 already there/).first()).toBeVisible();
  await page.getByRole("button", { name: "Remove Tradier connection" }).click();
  await expect(page.getByText("Tradier disconnected: the stored token is deleted")).toBeVisible();
  await close();
});
