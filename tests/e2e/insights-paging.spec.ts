import type { Page } from "@playwright/test";
import * as calls from "#contract/calls.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { holdScripts, waitForHydration } from "./support/hydration.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { signIn } from "./support/sign-in.ts";
import { providerCall } from "./support/watchlist.ts";
import { expect, test } from "./support/test.ts";

/**
 * /insights shows a page of 25 cards and 'Show 25 more' (ADR 0102), with and without JavaScript,
 * and the search finds a stock past the page. An app of its own: it makes more stocks with
 * recommendations than a page holds, which would push other files' cards off their page.
 */
test.describe.configure({ timeout: 240_000 });

const ports = ownPorts();
const appUrl = `http://localhost:${ports.app[0]!}`;
const providerUrl = `http://127.0.0.1:${ports.provider[0]!}`;
const dataDir = tempDir("putseller-insights-paging-");
const TICKERS = DEMO_TICKERS.slice(0, 32).map((t) => t.ticker);
let app: Started;
let last: { ticker: string; name: string };

test.beforeAll(async () => {
  test.setTimeout(420_000);
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      SEED_DEMO: "true",
      PORT: String(ports.app[0]!),
      PROVIDER_PORT: String(ports.provider[0]!),
      DATA_DIR: dataDir,
      GENERATIONS_PER_MINUTE: "100000",
      DEMO_LIVE_PRICES: "false",
      DEMO_JOURNAL: "false",
      // No 26-week back-test 10 s after start: it shares this app's process with the pages under
      // test. CI runs of this file saw 'Show 7 more' go unanswered for over 30 s in the minutes it
      // may run (suspected, not proven: the closing note of 2026-11-28).
      TRACK_RECORD_BACKTEST_WEEKS: "0",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
    },
    appUrl,
  );
  const login = await providerCall<{ access_token: string }>(providerUrl, calls.login, {
    body: { username: "admin", password: "admin1234" },
  });
  const token = login.body.access_token;
  for (const ticker of TICKERS) {
    const res = await providerCall(providerUrl, calls.generateRecommendations, { token, params: { ticker } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const all = await providerCall<{ ticker: string; stock_name: string }[]>(providerUrl, calls.topLineRecommendations, {
    token,
  });
  expect(all.body.length).toBeGreaterThan(25);
  const end = all.body.at(-1)!;
  last = { ticker: end.ticker, name: end.stock_name };
});

test.afterAll(async () => {
  await app?.stop();
});

const cards = (page: Page) => page.locator("li.ins-card");

// The next page is a new request to the app and its provider, which on a loaded CI machine (two
// workers' apps and this file's own) took over the default 10 s twice: the address is awaited longer.
const NEXT_PAGE = { timeout: 30_000 };

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a page of 25 cards, 'Show 25 more' brings the next, and the search finds a stock past the page", async ({
    page,
  }) => {
    await signIn(page, "demo", "demo1234", appUrl);
    await page.goto(`${appUrl}/insights`);
    await expect(cards(page)).toHaveCount(25);
    await expect(page.getByTestId("showing")).toHaveText(/^Showing 25 of \d+ stocks$/);
    await expect(page.locator(`li.ins-card[data-ticker="${last.ticker}"]`)).toHaveCount(0);
    await page.getByRole("link", { name: /^Show \d+ more$/ }).click();
    await expect(page).toHaveURL(/[?&]shown=50/, NEXT_PAGE);
    await expect(page.locator(`li.ins-card[data-ticker="${last.ticker}"]`)).toHaveCount(1);
    expect(await cards(page).count()).toBeGreaterThan(25);

    await page.goto(`${appUrl}/insights`);
    await page.getByLabel("Search by name").fill(last.name);
    await page.getByLabel("Search by name").press("Enter");
    await expect(page.locator(`li.ins-card[data-ticker="${last.ticker}"]`)).toHaveCount(1);
  });
});

test("with JavaScript the search finds a stock past the page, and 'Show 25 more' keeps the expanded stock", async ({
  page,
}) => {
  await signIn(page, "demo", "demo1234", appUrl);
  await page.goto(`${appUrl}/insights`);
  await waitForHydration(page);
  await expect(cards(page)).toHaveCount(25);
  await page.getByLabel("Search by name").fill(last.name);
  await expect(page.locator(`li.ins-card[data-ticker="${last.ticker}"]`)).toHaveCount(1);
  await expect(page).toHaveURL(/[?&]q=/);

  await page.goto(`${appUrl}/insights?open=${TICKERS[0]}`);
  await waitForHydration(page);
  await page.getByRole("link", { name: /^Show \d+ more$/ }).click();
  await expect(page).toHaveURL(new RegExp(`open=${TICKERS[0]}.*shown=50|shown=50.*open=${TICKERS[0]}`), NEXT_PAGE);
  await expect(page.locator(`li.ins-card[data-ticker="${last.ticker}"]`)).toHaveCount(1);
  await expect(page.locator(`li.ins-card[data-ticker="${TICKERS[0]}"]`)).toHaveAttribute("data-expanded", "true");
});

test.describe("before the scripts arrive", () => {
  test.use({ serviceWorkers: "block" });

  test("'Show 25 more' tapped before the scripts run still shows the next cards", async ({ page }) => {
    await signIn(page, "demo", "demo1234", appUrl);
    const release = await holdScripts(page);
    await page.goto(`${appUrl}/insights`, { waitUntil: "domcontentloaded" });
    await page.getByRole("link", { name: /^Show \d+ more$/ }).click();
    await expect(page).toHaveURL(/[?&]shown=50/, NEXT_PAGE);
    await expect(page.locator(`li.ins-card[data-ticker="${last.ticker}"]`)).toHaveCount(1);
    release();
  });
});
