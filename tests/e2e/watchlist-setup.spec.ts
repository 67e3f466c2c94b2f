import { expect, test } from "./support/test.ts";
import { createProvider } from "#provider/app.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import {
  centerOf,
  createTrader,
  Finger,
  listReady,
  recordToasts,
  expectToast,
  row,
  signInAs,
  watchlistOf,
  type Trader,
} from "./support/watchlist.ts";

/**
 * The watchlist under an operator's own settings, on its own provider and app:
 * - the trader role holds no USER_STOCK DELETE (docs/product.md#roles lets a provider withhold it);
 * - LOGO_URL_TEMPLATE points at a logo host (served here by the test, no internet needed);
 * - at the end the provider goes away, and every action says so in the words of docs/product.md.
 */
test.describe.configure({ mode: "serial", timeout: 120_000 });

const ports = ownPorts();
const appPort = ports.app[0]!;
const providerPort = ports.provider[0]!;
const providerUrl = `http://127.0.0.1:${providerPort}`;
const appUrl = `http://localhost:${appPort}`;
const LOGO_HOST = "https://logos.example.test";
const dataDir = tempDir("putseller-wl-setup-");
let provider: Started;
let app: Started;
let trader: Trader;

/** A 2×2 PNG: what the logo host answers for AAPL. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAwMDAAAAMAAFHZ1yxAAAAAElFTkSuQmCC",
  "base64",
);

test.beforeAll(async () => {
  // Three starts (an in-process provider to seed, then the provider and the app) on a busy 2-core machine.
  test.setTimeout(240_000);
  // A leftover process on these ports would answer in place of the ones started here.
  for (const url of [providerUrl, appUrl]) {
    const busy = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (busy) throw new Error(`${url} is already taken by another process; stop it first`);
  }
  // Seed the store, then take USER_STOCK DELETE away from traders, before the provider process opens it.
  const seeded = await createProvider({ dataDir, seedDemo: true });
  const trader = await seeded.context.db
    .selectFrom("roles")
    .select("id")
    .where("name", "=", "trader")
    .executeTakeFirstOrThrow();
  await seeded.context.db
    .deleteFrom("role_permissions")
    .where("role_id", "=", trader.id)
    .where("object", "=", "USER_STOCK")
    .where("action", "=", "DELETE")
    .execute();
  await seeded.close();

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
      SESSION_SECRET: "watchlist-setup-session-secret-0123456789",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATA_DIR: dataDir,
      LOGO_URL_TEMPLATE: `${LOGO_HOST}/{ticker}.png`,
    },
    appUrl,
  );
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.stop();
});

test.beforeEach(async ({ page }) => {
  await recordToasts(page);
  // The logo host: AAPL has a logo, every other ticker answers 404.
  await page.route(`${LOGO_HOST}/**`, (route) =>
    route.request().url().endsWith("/aapl.png")
      ? route.fulfill({ status: 200, contentType: "image/png", body: PNG })
      : route.fulfill({ status: 404, body: "" }),
  );
});

test("logos come from LOGO_URL_TEMPLATE with the lower-case ticker; a failed one shows initials in the same space", async ({
  page,
}) => {
  trader = await createTrader(["AAPL", "MSFT", "KO"], providerUrl);
  await signInAs(page, trader, appUrl);
  await listReady(page);

  const logo = row(page, "AAPL").locator(".stock-logo");
  const image = logo.locator("img");
  await expect(image).toHaveAttribute("src", `${LOGO_HOST}/aapl.png`);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(image).toBeVisible();

  const fallback = row(page, "MSFT").locator(".stock-logo");
  await expect(fallback.locator("img")).toHaveCount(0);
  await expect(fallback).toHaveText("MS");
  for (const box of [await logo.boundingBox(), await fallback.boundingBox()]) {
    expect(box).toMatchObject({ width: 40, height: 40 });
  }
});

test("without USER_STOCK DELETE a swipe says 'You do not have permission to delete this stock.' and the row snaps back", async ({
  page,
}) => {
  await signInAs(page, trader, appUrl);
  await listReady(page);
  const finger = await Finger.down(page, await centerOf(row(page, "KO").locator(".main")));
  await finger.move(-140);
  await finger.up();
  await expectToast(page, "You do not have permission to delete this stock.", 2000);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(row(page, "KO").locator(".surface")).not.toHaveAttribute("style", /translateX/);

  // No Delete in the row's panel; the confirmation step by URL explains instead of offering it.
  // (A fresh page: on a loaded CI machine the first tap right after the denied swipe was seen not
  // to expand the row; that is recorded as a suspected bug in the session note, not hidden here.)
  await page.reload();
  await listReady(page);
  await row(page, "KO").locator(".main").tap();
  await expect(row(page, "KO").getByRole("link", { name: "Edit" })).toBeVisible();
  await expect(row(page, "KO").getByRole("link", { name: "Delete" })).toHaveCount(0);
  await page.goto(`${appUrl}/user-stocks?delete=KO`);
  const dialog = page.getByRole("dialog", { name: "Delete stock" });
  await expect(dialog).toContainText("You do not have permission to delete this stock.");
  await expect(dialog.getByRole("button", { name: "Delete" })).toHaveCount(0);
  expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["AAPL", "MSFT", "KO"]);
});

test("when the provider is unreachable: the switch, reorder and the list say so in the words of docs/product.md", async ({
  page,
}) => {
  await signInAs(page, trader, appUrl);
  await listReady(page);
  await provider.stop();

  const toggle = row(page, "KO").getByRole("switch", { name: "Recommendations for KO" });
  await toggle.click();
  await expectToast(
    page,
    "Failed to update recommendation setting: Network error. Please check your connection.",
    2000,
  );
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  await page.getByRole("link", { name: "Reorder" }).click();
  await row(page, "AAPL").getByRole("button", { name: "Move AAPL down" }).click();
  await page.getByRole("button", { name: "Finish Reorder" }).click();
  await expectToast(page, "Error: Network error. Please check your connection.", 2000);
  // Still in reorder mode with the unsaved order, to try again.
  await expect(page.getByRole("button", { name: "Finish Reorder" })).toBeVisible();

  await page.goto(`${appUrl}/user-stocks`);
  await expect(page.getByRole("alert")).toHaveText("Failed to fetch user stocks");
});
