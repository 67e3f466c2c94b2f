import { expect, test } from "./support/test.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { createTrader, expectToast, listReady, recordToasts, row, signInAs, type Trader } from "./support/watchlist.ts";

/**
 * The UIP list when its provider goes away (docs/product.md#states-data, #errors): on its own provider and app, so
 * stopping the provider touches no other test. Every action and the list say so in the words of docs/product.md.
 */
test.describe.configure({ mode: "serial", timeout: 120_000 });

const ports = ownPorts();
const appPort = ports.app[0]!;
const providerPort = ports.provider[0]!;
const providerUrl = `http://127.0.0.1:${providerPort}`;
const appUrl = `http://localhost:${appPort}`;
const dataDir = tempDir("putseller-uip-setup-");
let provider: Started;
let app: Started;
let trader: Trader;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  for (const url of [providerUrl, appUrl]) {
    const busy = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (busy) throw new Error(`${url} is already taken by another process; stop it first`);
  }
  provider = await startNode(
    "provider/main.ts",
    { PROVIDER_PORT: String(providerPort), DATA_DIR: dataDir, SEED_DEMO: "true" },
    providerUrl,
  );
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_URL: providerUrl,
      SESSION_SECRET: "uip-setup-session-secret-0123456789abcdef",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATA_DIR: dataDir,
    },
    appUrl,
  );
  trader = await createTrader([], providerUrl);
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.stop();
});

test("with the provider gone: the bell, add to watchlist, the AI analysis and the list say so", async ({ page }) => {
  await recordToasts(page);
  await signInAs(page, trader, appUrl);
  await page.goto(`${appUrl}/uip-stocks`);
  await listReady(page);
  await row(page, "KO").locator(".main").tap();
  await provider.stop();

  const bell = row(page, "KO").getByRole("switch", { name: "Price alerts for KO" });
  await bell.click();
  await expectToast(page, "Failed to update the price alert: Network error. Please check your connection.", 2000);
  await expect(bell).toHaveAttribute("aria-checked", "false");

  // docs/product.md#errors-lists: a failure that is not an HTTP answer shows 'Error: {message}'.
  await row(page, "KO").getByRole("link", { name: "Add to Watchlist" }).click();
  const dialog = page.getByRole("dialog", { name: "Add KO to your watchlist?" });
  await dialog.getByRole("button", { name: "Add to Watchlist" }).click();
  await expectToast(page, "Error: Network error. Please check your connection.", 2000);
  await expect(dialog).toHaveCount(0);

  await row(page, "KO").getByRole("link", { name: "AI analysis" }).click();
  const modal = page.getByRole("dialog", { name: "AI analysis: KO" });
  await expect(modal.getByRole("alert")).toHaveText("Error fetching AI analysis.");
  await modal.getByRole("link", { name: "Close" }).last().click();

  await page.reload();
  await expect(page.getByRole("alert")).toHaveText("Failed to fetch UIP stocks");
  await expect(page.getByRole("heading", { name: "UIP Stocks" })).toBeVisible();
  await expect(page.locator("li.stock-row")).toHaveCount(0);
});
