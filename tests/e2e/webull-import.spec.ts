import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { createTrader, signInAs } from "./support/watchlist.ts";

/**
 * A Webull orders file on the import screen, without JavaScript: the preview shows the assignment and
 * the expiries recorded from the market's close, the import makes the one KO cycle, and the same
 * file again adds nothing (docs/decisions/0095-webull-orders-and-expiries-from-the-close.md). The
 * test provider's market (tests/e2e/support/live-provider.ts, its clock in November 2026) is given
 * KO's closes on the three expiry days; the hand-worked figures are in
 * provider/routes/trade-imports-webull.test.ts.
 */
test.describe.configure({ timeout: 300_000 });

const ports = ownPorts();
const providerPort = ports.provider[0]!;
const controlPort = ports.provider[1]!;
const appPort = ports.app[0]!;
const origin = `http://localhost:${appPort}`;
const providerUrl = `http://127.0.0.1:${providerPort}`;
const dataDir = tempDir("putseller-webull-");
let provider: Started;
let app: Started;

test.beforeAll(async () => {
  // Starting servers (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  provider = await startNode(
    "tests/e2e/support/live-provider.ts",
    {
      PROVIDER_PORT: String(providerPort),
      CONTROL_PORT: String(controlPort),
      DATA_DIR: dataDir,
      PROVIDER_SECRET: "webull-import-provider-secret-0123456789ab",
    },
    providerUrl,
  );
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_URL: providerUrl,
      SESSION_SECRET: "webull-import-session-secret-0123456789abc",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATA_DIR: dataDir,
      COOKIE_SECURE: "false",
    },
    origin,
  );
  for (const [day, close] of [
    ["2026-07-17", 63.8],
    ["2026-08-21", 65.2],
    ["2026-09-18", 68.1],
  ] as const) {
    const response = await fetch(`http://127.0.0.1:${controlPort}/expiries`, {
      method: "POST",
      body: JSON.stringify({ day, closes: { KO: close } }),
    });
    expect(response.ok, await response.text()).toBe(true);
  }
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.stop();
});

const fixture = new URL("../../provider/journal/brokers/fixtures/webull-orders.csv", import.meta.url).pathname;
const added = (page: Page) => page.getByRole("list", { name: "Will be added" }).getByRole("listitem");

async function preview(page: Page) {
  await page.goto(`${origin}/import-trades`);
  await page.getByLabel("Broker").selectOption("webull");
  await page.getByLabel("CSV, OFX or QFX file (under 1 MB)").setInputFiles(fixture);
  await page.getByRole("button", { name: "Preview" }).click();
}

test("Webull's orders: the assignment recorded from the close in the preview, one cycle, nothing twice (JavaScript off)", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const trader = await createTrader([], providerUrl);
  await signInAs(page, trader, origin);

  await preview(page);
  await expect(page.getByRole("status")).toHaveText("8 to add · 0 already imported · 4 refused · 0 lines not trades");
  await expect(added(page).nth(3)).toHaveText(
    "Recorded from the close of $63.80 on 2026-07-17: assignment 2 KO 65 put 2026-07-17 @ 0, fees 0, 2026-07-17 20:00 UTC",
  );
  await expect(page.getByRole("list", { name: "Refused lines" })).toContainText(
    'Line 6: Status "Cancelled": the order did not trade',
  );

  await page.getByRole("button", { name: "Import 8 trades" }).click();
  await expect(page).toHaveURL(/\/portfolio\?period=all$/);
  await expect(page.getByText("Imported 8 trades; 0 already in the journal, 4 refused", { exact: true })).toBeVisible();
  await expect(
    page
      .getByRole("listitem", { name: /^KO cycle from/ })
      .locator(".journal-figure")
      .filter({ has: page.getByText("Realised P/L (net of fees)", { exact: true }) })
      .locator("dd"),
  ).toHaveText("+$1,120.00");

  await preview(page);
  await expect(page.getByRole("status")).toHaveText("0 to add · 8 already imported · 4 refused · 0 lines not trades");
  await expect(
    page.getByText("Already imported: lines 2, 4, 8, 9, 10 and 3 expiries recorded from the close.", { exact: true }),
  ).toBeVisible();
  await context.close();
});
