import { isMarketOpen } from "#provider/market/calendar.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { signIn } from "./support/sign-in.ts";
import { expect, test } from "./support/test.ts";

/**
 * The demo market alive at any hour (docs/product.md#states-market, ADR 0037): an app started as
 * `npm start` starts it (production, demo data, every other setting its default) shows, whatever
 * the real hour, a watchlist whose prices move within about a minute, and while NYSE is closed the
 * line 'Demo market: replaying a session' under the Live dot.
 */
test.describe.configure({ timeout: 180_000 });

const ports = ownPorts();
const appPort = ports.app[0]!;
const appUrl = `http://localhost:${appPort}`;
const dataDir = tempDir("putseller-demo-market-");
let app: Started;

test.beforeAll(async () => {
  // Seeding a demo store takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  app = await startNode(
    "server.ts",
    {
      // What `npm start` sets; nothing about prices or the market.
      NODE_ENV: "production",
      SEED_DEMO: "true",
      PORT: String(appPort),
      PROVIDER_PORT: String(ports.provider[0]!),
      DATA_DIR: dataDir,
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
    },
    appUrl,
  );
});

test.afterAll(async () => {
  await app?.stop();
});

test("the demo watchlist's prices move within a minute, labelled as a replay while the market is closed", async ({
  page,
}) => {
  await signIn(page, "demo", "demo1234", appUrl);
  await expect(page.getByRole("status").filter({ hasText: /^Live$/ })).toBeVisible();
  const note = page.locator(".market-note");
  if (isMarketOpen(new Date())) await expect(note).toHaveCount(0);
  else await expect(note).toHaveText("Demo market: replaying a session");

  const prices = () => page.locator(".stock-row .price").allTextContents();
  const first = await prices();
  expect(first.length).toBeGreaterThan(0);
  // The price job runs every 60 s (PRICE_REFRESH_SECONDS) and its update arrives over the websocket,
  // without a reload: some price on the page changes.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
  await expect.poll(prices, { timeout: 90_000, intervals: [1_000] }).not.toEqual(first);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
});
