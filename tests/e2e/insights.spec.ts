import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import * as calls from "#contract/calls.ts";
import { createTrader, expectToast, providerCall, recordToasts, signInAs, type Trader } from "./support/watchlist.ts";
import {
  card,
  chips,
  chipText,
  D1,
  D2,
  D3,
  datesOf,
  fixed,
  flaggedTrader,
  generateAs,
  optionsOf,
  RULES,
  ruleTopLine,
  selectedChip,
  serveRules,
  shownStrikes,
  startStandInApp,
  topLineOf,
  type StandIn,
} from "./support/insights.ts";

/**
 * The Recommendations screen (docs/product.md#screens-insights, #states-option-card, #states-ai, #errors-ai) on a
 * phone. Real data comes from the embedded provider:
 * the demo's flagged tickers (AAPL, MSFT, GOOGL, JPM) are generated when the demo data is seeded,
 * and tests generate other tickers as their own traders (so no demo user is notified). Data that
 * sits exactly on the rules' boundaries, and failures, come from a stand-in provider in front of
 * the real one, used by a second instance of the same build.
 */
test.describe.configure({ timeout: 90_000 });

const SEEDED = ["AAPL", "GOOGL", "JPM", "MSFT"];
const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const dialogOf = (page: Page) => page.getByRole("dialog", { name: "Sell Put Options" });
const optionsOn = (options: TradeRecommendation[], date: string) => options.filter((o) => o.expiration_date === date);
const strikesOf = (options: TradeRecommendation[]) => options.map((o) => `$${fixed(o.strike_price)}`);
const longDate = (date: string) =>
  new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );

async function openInsights(page: Page, trader: Trader, baseUrl = "") {
  // This file is about the screen's workings, not the trader's plan (trader-plans.spec.ts covers
  // the filters): these traders open their filters as wide as they go, so the stored puts decide.
  const widest = {
    at_or_below_conservative: false,
    delta_min: 0,
    delta_max: 0.6,
    dte_min: 1,
    dte_max: 90,
    min_bid: 0.05,
    min_open_interest: 0,
    max_spread: 0.5,
    skip_earnings: false,
    commission: 0.65,
  };
  const saved = await providerCall(trader.providerUrl, calls.saveTraderFilters, { token: trader.token, body: widest });
  expect(saved.status).toBe(200);
  await signInAs(page, trader, baseUrl);
  await nav(page).getByRole("link", { name: "Insights" }).click();
  await expect(page).toHaveURL(/\/insights$/);
  await expect(page.getByRole("heading", { name: "Recommendations", level: 1 })).toBeVisible();
}

/** React has taken over the page (the header's forms post in place from then on): the root marks it. */
async function hydrated(page: Page) {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

test.describe("JavaScript on", () => {
  test.beforeEach(async ({ page }) => {
    await recordToasts(page);
  });

  test("one card per stock of the top line; Expand/Collapse in the URL, one at a time; date chips and their option cards", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await openInsights(page, trader);
    const top = await topLineOf(trader);
    expect(top.map((t) => t.ticker)).toEqual(expect.arrayContaining(SEEDED));
    await expect(page.locator("li.ins-card")).toHaveCount(top.length);

    const aaplTop = top.find((t) => t.ticker === "AAPL")!;
    const aapl = card(page, "AAPL");
    await expect(aapl.getByRole("heading", { name: "AAPL" })).toBeVisible();
    await expect(aapl.locator(".ins-card__name")).toHaveText("Apple Inc.");
    await expect(aapl.getByTestId("price")).toHaveText(fixed(aaplTop.current_price));
    await expect(aapl.getByTestId("count")).toHaveText(`${aaplTop.trade_recommendation_count} puts`);
    await expect(aapl.getByTestId("implied-volatility")).toHaveText(`${fixed(aaplTop.implied_volatility * 100)}%`);
    // Collapsed cards render no options at all (the page stays light).
    await expect(page.getByTestId("option-card")).toHaveCount(0);

    await aapl.getByRole("link", { name: "Expand AAPL" }).click();
    await expect(page).toHaveURL(/\/insights\?open=AAPL$/);
    const collapse = aapl.getByRole("link", { name: "Collapse AAPL" });
    await expect(collapse).toHaveAttribute("aria-expanded", "true");
    const options = await optionsOf(trader, "AAPL");
    const dates = datesOf(options);
    expect(dates.length).toBeGreaterThan(1);
    await expect(chips(aapl)).toHaveText(dates.map(chipText));
    await expect(selectedChip(aapl)).toHaveText(chipText(dates[0]!));
    expect(await shownStrikes(aapl)).toEqual(strikesOf(optionsOn(options, dates[0]!)));

    // A date chip shows that date's option cards, in the engine's order; the URL keeps it.
    const last = dates.at(-1)!;
    await chips(aapl)
      .filter({ hasText: chipText(last) })
      .click();
    await expect(page).toHaveURL(new RegExp(`\\?open=AAPL&date=${last}$`));
    await expect(selectedChip(aapl)).toHaveText(chipText(last));
    await expect(selectedChip(aapl)).toHaveAttribute("aria-label", longDate(last));
    expect(await shownStrikes(aapl)).toEqual(strikesOf(optionsOn(options, last)));
    await page.reload();
    await expect(selectedChip(aapl)).toHaveText(chipText(last));

    // Expanding another collapses the first.
    const msft = card(page, "MSFT");
    await msft.getByRole("link", { name: "Expand MSFT" }).click();
    await expect(page).toHaveURL(/\/insights\?open=MSFT$/);
    await expect(aapl.getByRole("link", { name: "Expand AAPL" })).toHaveAttribute("aria-expanded", "false");
    await expect(aapl.getByTestId("option-card")).toHaveCount(0);
    const msftOptions = await optionsOf(trader, "MSFT");
    expect(await shownStrikes(msft)).toEqual(strikesOf(optionsOn(msftOptions, datesOf(msftOptions)[0]!)));
    await expect(page.getByTestId("option-card")).toHaveCount(optionsOn(msftOptions, datesOf(msftOptions)[0]!).length);

    await msft.getByRole("link", { name: "Collapse MSFT" }).click();
    await expect(page).toHaveURL(/\/insights$/);
    await expect(page.getByTestId("option-card")).toHaveCount(0);
    await expect(msft.getByRole("link", { name: "Expand MSFT" })).toBeVisible();
  });

  // The detail test holds the AI request back; a service worker's own fetches are out of the test's reach.
  test.describe(() => {
    test.use({ serviceWorkers: "block" });
    test("the option detail 'Sell Put Options': its own URL, this option's figures and greeks, Explain streams ('Thinking...'), Escape closes", async ({
      page,
    }) => {
      const trader = await createTrader([]);
      await openInsights(page, trader);
      const options = await optionsOf(trader, "AAPL");
      const first = optionsOn(options, datesOf(options)[0]!)[0]!;
      const aapl = card(page, "AAPL");
      await aapl.getByRole("link", { name: "Expand AAPL" }).click();
      await expect(page).toHaveURL(/\?open=AAPL$/);
      await hydrated(page);

      const optionCard = aapl.locator(`[data-id="${first.id}"]`);
      // The whole card is the tap target: a tap low on the card, on its figures, opens it.
      const box = (await optionCard.boundingBox())!;
      await optionCard.click({ position: { x: box.width / 2, y: box.height - 12 } });
      await expect(page).toHaveURL(
        new RegExp(`/recommendation/${first.id}\\?open=AAPL&date=${first.expiration_date}$`),
      );
      const dialog = dialogOf(page);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("link", { name: "Close" })).toBeFocused();
      await expect(dialog.getByTestId("detail-strike")).toHaveText(`$${fixed(first.strike_price)}`);
      await expect(dialog.getByTestId("detail-expiry")).toHaveText(longDate(first.expiration_date));
      await expect(dialog.getByTestId("detail-iv")).toHaveText(`${fixed(first.implied_volatility * 100)}%`);
      await expect(dialog.getByTestId("detail-price")).toHaveText(`$${fixed(first.current_option_price)}`);
      await expect(dialog.getByText("AAPL · Apple Inc.", { exact: false })).toBeVisible();
      const delta = dialog.getByTestId("greek-delta");
      await expect(delta.locator("dt")).toHaveText(`Delta ${fixed(first.delta)}`);
      await expect(delta.locator("dd")).toContainText(
        `For every $1 AAPL moves, this put moves about $${fixed(Math.abs(first.delta))} the other way`,
      );
      await expect(dialog.getByTestId("greek-theta").locator("dt")).toHaveText(`Theta ${fixed(first.theta)}`);
      await expect(dialog.getByTestId("greek-theta").locator("dd")).toContainText(
        `loses about $${fixed(Math.abs(first.theta))} of value a day`,
      );
      await expect(dialog.getByTestId("greek-vega").locator("dt")).toHaveText(`Vega ${fixed(first.vega)}`);
      await expect(dialog.getByTestId("greek-vega").locator("dd")).toContainText(
        `the put gains about $${fixed(Math.abs(first.vega))}`,
      );

      // Explain: 'Thinking...' while the explanation loads (held back here), then its text.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const sent: unknown[] = [];
      await page.route("**/resources/ai/summarize", async (route) => {
        sent.push(route.request().postDataJSON());
        await held;
        await route.continue();
      });
      await dialog.getByRole("button", { name: "Explain" }).click();
      const thinking = dialog.getByRole("button", { name: "Thinking..." });
      await expect(thinking).toBeDisabled();
      expect(sent).toEqual([expect.objectContaining({ id: first.id, option_identifier: first.option_identifier })]);
      release();
      await expect(dialog.locator(".ai-text__body")).toContainText(`Selling ${first.option_identifier}: a put on AAPL`);
      await expect(dialog.getByRole("button", { name: "Explain" })).toBeEnabled();
      await page.unrouteAll({ behavior: "wait" });

      // Escape closes it: back to the list as it was, focus on the card that opened it.
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
      await expect(page).toHaveURL(/\/insights\?open=AAPL$/);
      await expect(optionCard.getByRole("link")).toBeFocused();

      // Opened directly (a shared link): closing shows its stock and date.
      await page.goto(`/recommendation/${first.id}`);
      await expect(dialog.getByTestId("detail-strike")).toHaveText(`$${fixed(first.strike_price)}`);
      // The detail belongs to the Insights tab: the bottom navigation says so.
      await expect(page.locator('nav[aria-label="Main"] a[aria-current="page"]')).toHaveAttribute("href", "/insights");
      await dialog.getByRole("link", { name: "Close" }).click();
      await expect(page).toHaveURL(new RegExp(`/insights\\?open=AAPL&date=${first.expiration_date}$`));
      await expect(selectedChip(aapl)).toHaveText(chipText(first.expiration_date));

      await page.goto("/recommendation/987654321");
      await expect(dialog.getByRole("alert")).toHaveText("Not found");
    });
  });

  test("search by name follows the typing (300 ms), lives in the URL, and Escape clears it", async ({ page }) => {
    const trader = await createTrader([]);
    await openInsights(page, trader);
    await hydrated(page);
    const search = page.getByRole("searchbox", { name: "Search by name" });
    await search.fill("micro");
    await expect(page).toHaveURL(/\/insights\?q=micro$/);
    await expect(page.locator("li.ins-card")).toHaveCount(1);
    await expect(card(page, "MSFT")).toBeVisible();
    await page.reload();
    await expect(search).toHaveValue("micro");
    await expect(page.locator("li.ins-card")).toHaveCount(1);
    await hydrated(page);
    await search.press("Escape");
    await expect(page).toHaveURL(/\/insights$/);
    await expect(page.locator("li.ins-card")).toHaveCount((await topLineOf(trader)).length);
    await search.fill("zzz");
    await expect(page.getByRole("status").filter({ hasText: "No stock matches “zzz”." })).toBeVisible();
  });

  test("generate for one ticker: 'Not found', 'Not authorized to generate recommendations', the provider's message; toasts close after 3 s; the new stock opens", async ({
    page,
  }) => {
    const trader = await flaggedTrader(["NFLX"]);
    await openInsights(page, trader);
    await hydrated(page);
    await expect(card(page, "NFLX")).toHaveCount(0);
    const input = page.getByLabel("Generate for a ticker");
    const generate = page.getByRole("button", { name: "Generate" });

    // Only letters and digits, upper case (docs/product.md#validation-stock).
    await input.fill("zz.zz-9");
    await expect(input).toHaveValue("ZZZZ9");
    await generate.click();
    await expectToast(page, "Not found", 3000);
    await expect(input).toHaveValue("ZZZZ9");

    await input.fill("KO");
    await generate.click();
    await expectToast(page, "Not authorized to generate recommendations", 3000);
    await expect(page).toHaveURL(/\/insights$/);

    await input.fill("nflx");
    await generate.click();
    await expect(page).toHaveURL(/\/insights\?open=NFLX$/);
    const options = await optionsOf(trader, "NFLX");
    expect(options.length).toBeGreaterThan(0);
    await expectToast(page, `Generated ${options.length} recommendations for NFLX`, 3000);
    await expect(input).toHaveValue("");
    const nflx = card(page, "NFLX");
    await expect(nflx.getByRole("link", { name: "Collapse NFLX" })).toBeVisible();
    expect(await shownStrikes(nflx)).toEqual(strikesOf(optionsOn(options, datesOf(options)[0]!)));
  });

  test("the next ticker typed while a generation's page reload is still on its way is kept", async ({ browser }) => {
    const trader = await flaggedTrader(["NFLX"]);
    // No service worker: the page's requests must meet the hold below.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await openInsights(page, trader);
    await hydrated(page);
    const input = page.getByLabel("Generate for a ticker");

    // After a generation the page reloads its data; on a slow connection that takes a while.
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    let reloads = 0;
    await page.route(
      (url) => url.pathname === "/insights.data",
      async (route) => {
        if (route.request().method() === "GET") {
          reloads++;
          await held;
        }
        await route.continue();
      },
    );
    await input.fill("NFLX");
    await page.getByRole("button", { name: "Generate" }).click();
    await expect.poll(() => reloads).toBeGreaterThan(0);
    await input.fill("HD");
    release();
    await expect(page).toHaveURL(/\/insights\?open=NFLX$/);
    await expect(card(page, "NFLX").getByRole("link", { name: "Collapse NFLX" })).toBeVisible();
    await expect(input).toHaveValue("HD");
    await context.close();
  });
});

test("live updates from /ws/trade-updates change the open cards in place: a stock's new set, a new stock's card", async ({
  page,
}) => {
  const trader = await flaggedTrader(["HD", "WMT"]);
  expect((await generateAs(trader, "HD")).status).toBe(200);
  await openInsights(page, trader);
  await expect(page.locator(".page-header").getByText("Live", { exact: true })).toBeVisible();
  const hd = card(page, "HD");
  await hd.getByRole("link", { name: "Expand HD" }).click();
  await expect(page).toHaveURL(/\?open=HD$/);
  const before = await optionsOf(trader, "HD");
  await expect(hd.locator(`[data-id="${before[0]!.id}"]`)).toBeVisible();

  // From here on no page load; the data is read again only for the open stock, whose rows' buy-level
  // flags follow this trader's own levels (a broadcast carries the shared ones).
  const loads: string[] = [];
  const dataReads: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") loads.push(request.url());
    else if (request.url().includes(".data")) dataReads.push(request.url());
  });
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));

  // Generating again publishes the stock's new set (new rows, new ids) and its summary.
  expect((await generateAs(trader, "HD")).status).toBe(200);
  const after = await optionsOf(trader, "HD");
  expect(after[0]!.id).not.toBe(before[0]!.id);
  await expect(hd.locator(`[data-id="${after[0]!.id}"]`)).toBeVisible();
  await expect(hd.locator(`[data-id="${before[0]!.id}"]`)).toHaveCount(0);
  await expect(hd.getByTestId("count")).toHaveText(`${after.length} puts`);
  await expect.poll(() => dataReads.filter((url) => url.includes("open=HD")).length).toBeGreaterThan(0);
  const readsAfterHd = dataReads.length;

  // A stock with no card yet gets one, in ticker order.
  await expect(card(page, "WMT")).toHaveCount(0);
  expect((await generateAs(trader, "WMT")).status).toBe(200);
  await expect(card(page, "WMT")).toBeVisible();
  const tickers = await page
    .locator("li.ins-card")
    .evaluateAll((items) => items.map((li) => li.getAttribute("data-ticker")));
  expect(tickers).toEqual([...tickers].sort());

  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  expect(loads).toEqual([]);
  // A stock that is not open is not read again: after a burst of top-line updates the page reads
  // its trader's own counts (docs/product.md#states-live) with the open stock, HD, never WMT.
  await expect.poll(() => dataReads.length).toBeGreaterThan(readsAfterHd);
  expect(dataReads.filter((url) => url.includes("WMT"))).toEqual([]);
});

test.describe("JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("expand, date chips, the option detail with Explain, and search all work as links and forms", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await openInsights(page, trader);
    const aapl = card(page, "AAPL");
    await aapl.getByRole("link", { name: "Expand AAPL" }).click();
    await expect(page).toHaveURL(/\/insights\?open=AAPL$/);
    const options = await optionsOf(trader, "AAPL");
    const dates = datesOf(options);
    await expect(chips(aapl)).toHaveText(dates.map(chipText));
    const second = dates[1]!;
    await chips(aapl)
      .filter({ hasText: chipText(second) })
      .click();
    await expect(page).toHaveURL(new RegExp(`\\?open=AAPL&date=${second}$`));
    expect(await shownStrikes(aapl)).toEqual(strikesOf(optionsOn(options, second)));

    const option = optionsOn(options, second)[0]!;
    await aapl.locator(`[data-id="${option.id}"]`).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/recommendation/${option.id}\\?open=AAPL&date=${second}$`));
    const dialog = dialogOf(page);
    await expect(dialog.getByTestId("detail-strike")).toHaveText(`$${fixed(option.strike_price)}`);
    await expect(dialog.getByTestId("greek-delta").locator("dt")).toHaveText(`Delta ${fixed(option.delta)}`);
    // Explain without JavaScript: the server writes the explanation into the page.
    await dialog.getByRole("button", { name: "Explain" }).click();
    await expect(page).toHaveURL(new RegExp(`/recommendation/${option.id}\\?open=AAPL&date=${second}&explain=1$`));
    await expect(dialog.locator(".ai-text__body")).toContainText(`Selling ${option.option_identifier}`);
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(new RegExp(`/insights\\?open=AAPL&date=${second}$`));
    await expect(selectedChip(aapl)).toHaveText(chipText(second));

    await page.getByRole("searchbox", { name: "Search by name" }).fill("apple");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`/insights\\?q=apple&open=AAPL&date=${second}$`));
    await expect(page.locator("li.ins-card")).toHaveCount(1);
    expect(await shownStrikes(aapl)).toEqual(strikesOf(optionsOn(options, second)));
  });

  test("generate posts a form: 'Not found', 'Not authorized to generate recommendations', the provider's message (3 s), and opens the stock", async ({
    page,
  }) => {
    const trader = await flaggedTrader(["COST"]);
    await openInsights(page, trader);
    const input = page.getByLabel("Generate for a ticker");
    const generate = page.getByRole("button", { name: "Generate" });
    await input.fill("zz.zz9");
    await generate.click();
    await expectStaticToast(page, "Not found");
    await input.fill("KO");
    await generate.click();
    await expectStaticToast(page, "Not authorized to generate recommendations");
    await input.fill("cost");
    await generate.click();
    await expect(page).toHaveURL(/\/insights\?open=COST$/);
    const options = await optionsOf(trader, "COST");
    await expectStaticToast(page, `Generated ${options.length} recommendations for COST`);
    expect(await shownStrikes(card(page, "COST"))).toEqual(strikesOf(optionsOn(options, datesOf(options)[0]!)));
  });
});

/** Without JavaScript the flash toast is server-rendered and fades by CSS after its time (3 s on this header). */
async function expectStaticToast(page: Page, text: string, autoCloseMs = 3000) {
  const shown = page.locator(".static-toast").filter({ hasText: text });
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute("style", new RegExp(`animation-delay: ?${autoCloseMs}ms`));
}

// ── Against the stand-in provider ───────────────────────────────────────────────────────────────

test.describe("boundaries and failures (stand-in provider)", () => {
  let standIn: StandIn;
  let appUrl = "";
  let close: () => Promise<void>;
  let trader: Trader;

  test.beforeAll(async () => {
    const started = await startStandInApp();
    standIn = started.standIn;
    appUrl = started.app.url;
    close = started.close;
    trader = await createTrader([]);
  });
  test.afterAll(async () => close?.());
  test.beforeEach(async ({ page }) => {
    standIn.reset();
    serveRules(standIn);
    await recordToasts(page);
  });

  /** Every docs/product.md#states-option-card option-card rule, on the RULES set's boundary options (D1). */
  async function expectRuleCards(rules: Locator) {
    const option = (id: number) => rules.locator(`[data-id="${id}"]`);
    // 105: strike above the price is ITM; 5 % above: up to 5 %; price 2 exactly at the low + a third: neutral.
    await expect(option(910001).getByTestId("moneyness")).toHaveText("ITM");
    await expect(option(910001).getByTestId("distance")).toHaveText("$5.00 (5.0%) above the priceWithin 5%");
    await expect(option(910001).locator("[data-trend]")).toHaveAttribute("data-trend", "neutral");
    await expect(option(910001).locator("[data-trend]")).toHaveText("Mid weekly range");
    // 95: OTM, exactly 5 %: up to 5 %; price 3 exactly at the high − a third: neutral; at the 2nd buy level.
    await expect(option(910002).getByTestId("moneyness")).toHaveText("OTM");
    await expect(option(910002).getByTestId("distance")).toHaveText("$5.00 (5.0%) below the priceWithin 5%");
    await expect(option(910002).locator("[data-trend]")).toHaveAttribute("data-trend", "neutral");
    await expect(option(910002).getByTestId("buy-level")).toHaveText("At or below the 2nd buy level");
    // 94.9: 5.1 %: up to 15 %; price 3.01 above the line: up; earnings before expiry.
    await expect(option(910003).getByTestId("distance")).toHaveText("$5.10 (5.1%) below the price5–15% away");
    await expect(option(910003).locator("[data-trend]")).toHaveAttribute("data-trend", "up");
    await expect(option(910003).locator("[data-trend]")).toHaveText("Near its weekly high");
    await expect(option(910003).getByTestId("earnings-warning")).toHaveText(
      "Earnings on 10 Jan 2030 before expiry: ranked lower",
    );
    await expect(option(910002).getByTestId("earnings-warning")).toHaveCount(0);
    // 85: exactly 15 %: up to 15 %; price 1.99 below the line: down.
    await expect(option(910004).getByTestId("distance")).toHaveText("$15.00 (15.0%) below the price5–15% away");
    await expect(option(910004).locator("[data-trend]")).toHaveAttribute("data-trend", "down");
    await expect(option(910004).locator("[data-trend]")).toHaveText("Near its weekly low");
    // 84.9: 15.1 %: above 15 %.
    await expect(option(910005).getByTestId("distance")).toHaveText("$15.10 (15.1%) below the priceOver 15% away");
    await expect(option(910005).getByTestId("buy-level")).toHaveCount(0);
    // The figures: premium, monthly ROI (1 decimal), expiry, and the engine's extras.
    const a = option(910002);
    await expect(a.getByTestId("strike")).toHaveText("$95.00");
    await expect(a.getByTestId("premium")).toHaveText("$3.00");
    await expect(a.getByTestId("mid")).toHaveText("$2.50");
    // Net of the trader's commission (the stand-in's figures).
    await expect(a.getByTestId("roi")).toHaveText("2.4%");
    await expect(a.getByTestId("expiry")).toHaveText("18 Jan 2030");
    await expect(a.getByTestId("annualized")).toHaveText("29.7%");
    await expect(a.getByTestId("excess")).toHaveText("2.1%");
    await expect(a.getByTestId("assignment")).toHaveText("48.1%");
    await expect(a.getByTestId("abs-delta")).toHaveText("0.46");
    await expect(a.getByTestId("iv-standing")).toHaveText("rank 40% · percentile 45%");
    await expect(a.getByTestId("breakeven")).toHaveText("$92.50");
    await expect(a.getByTestId("collateral")).toHaveText("$9,500");
    await expect(a.getByTestId("pop")).toHaveText("71.3%");
  }

  test("option cards on the rules' boundaries: ITM/OTM, 5 % and 15 % bands, the trend by thirds, extras", async ({
    page,
  }) => {
    await openInsights(page, trader, appUrl);
    const rules = card(page, RULES);
    await rules.getByRole("link", { name: `Expand ${RULES}` }).click();
    await expect(selectedChip(rules)).toHaveText(chipText(D1));
    await expectRuleCards(rules);
  });

  test("the strike filter: default date is the first with passing options, a chosen date resets when the filter removes it, in the URL", async ({
    page,
  }) => {
    await openInsights(page, trader, appUrl);
    await hydrated(page);
    const rules = card(page, RULES);
    await rules.getByRole("link", { name: `Expand ${RULES}` }).click();
    await expect(chips(rules)).toHaveText([D1, D2, D3].map(chipText));

    const maxStrike = page.getByRole("spinbutton", { name: "Max strike" });
    await expect(maxStrike).toHaveAttribute("min", "0");
    await expect(maxStrike).toHaveAttribute("step", "0.01");
    // 84.89: every D1 strike is above it; D2 (80) is the first date with a passing option.
    await maxStrike.fill("84.89");
    await expect(page).toHaveURL(new RegExp(`\\?max=84\\.89&open=${RULES}$`));
    await expect(chips(rules)).toHaveText([D2, D3].map(chipText));
    await expect(selectedChip(rules)).toHaveText(chipText(D2));
    expect(await shownStrikes(rules)).toEqual(["$80.00"]);
    // 84.9 lets one D1 option back in, and D1 is first again.
    await maxStrike.fill("84.9");
    await expect(selectedChip(rules)).toHaveText(chipText(D1));
    expect(await shownStrikes(rules)).toEqual(["$84.90"]);

    // A chosen date stays while it has options, and resets when the filter removes it.
    await maxStrike.fill("");
    await expect(page).toHaveURL(new RegExp(`\\?open=${RULES}$`));
    await chips(rules)
      .filter({ hasText: chipText(D2) })
      .click();
    await expect(page).toHaveURL(new RegExp(`date=${D2}`));
    await maxStrike.fill("85");
    await expect(selectedChip(rules)).toHaveText(chipText(D2));
    await maxStrike.fill("75");
    await expect(chips(rules)).toHaveText([D3].map(chipText));
    await expect(selectedChip(rules)).toHaveText(chipText(D3));
    await expect(page).not.toHaveURL(new RegExp(`date=${D2}`));
    expect(await shownStrikes(rules)).toEqual(["$75.00", "$70.00"]);
    await maxStrike.fill("");
    await expect(selectedChip(rules)).toHaveText(chipText(D1));

    await maxStrike.fill("60");
    await expect(rules.getByRole("status")).toHaveText(
      `No recommended put of ${RULES} has a strike at or below $60.00.`,
    );
    await page.reload();
    await expect(maxStrike).toHaveValue("60");
    await expect(rules.getByRole("status")).toBeVisible();
  });

  test("the option detail with this option's IV (2 decimals) and greeks in plain words; a retired recommendation says so", async ({
    page,
  }) => {
    await openInsights(page, trader, appUrl);
    await page.goto(`${appUrl}/recommendation/910002`);
    const dialog = dialogOf(page);
    await expect(dialog.getByText(`${RULES} · Rule Check Corporation · stock $100.00`)).toBeVisible();
    await expect(dialog.getByTestId("detail-strike")).toHaveText("$95.00");
    await expect(dialog.getByTestId("detail-expiry")).toHaveText("18 Jan 2030");
    await expect(dialog.getByTestId("detail-iv")).toHaveText("31.23%");
    await expect(dialog.getByTestId("detail-price")).toHaveText("$3.00");
    await expect(dialog.getByTestId("greek-delta")).toHaveText(
      `Delta -0.46For every $1 ${RULES} moves, this put moves about $0.46 the other way ($45.67 a contract): it gains when ${RULES} falls. Traders read |delta| (46%) as a rough chance of being assigned; it understates it: the risk-neutral chance of ending below the strike, N(−d2), is 48%.`,
    );
    await expect(dialog.getByTestId("greek-theta")).toHaveText(
      "Theta -0.05Time decay: with nothing else changing, the put loses about $0.05 of value a day ($5.12 a contract). As the seller, that decay is what you earn.",
    );
    await expect(dialog.getByTestId("greek-vega")).toHaveText(
      "Vega 0.12If implied volatility rises by one percentage point, the put gains about $0.12 ($12.34 a contract), which works against you as the seller; a fall in volatility works for you.",
    );
    await expect(dialog.getByRole("note")).toHaveCount(0);
    await page.goto(`${appUrl}/recommendation/910009`);
    await expect(dialog.getByRole("note")).toContainText("A newer run has replaced this recommendation.");
  });

  test("failures: 'Failed to fetch trade recommendations top line data', 'Failed to fetch trade recommendations', 'An unexpected error occurred'", async ({
    page,
  }) => {
    standIn.answer("GET", calls.topLineRecommendationsPage.path, { status: 500, body: { detail: "down" } });
    await openInsights(page, trader, appUrl);
    await expect(page.getByRole("alert")).toHaveText("Failed to fetch trade recommendations top line data");
    await expect(page.locator("li.ins-card")).toHaveCount(0);
    await expect(page.getByText("No recommendations yet.")).toHaveCount(0);
    // An empty top line is not a failure.
    standIn.answer("GET", calls.topLineRecommendationsPage.path, { status: 200, body: { items: [], total: 0 } });
    await page.reload();
    await expect(page.getByText("No recommendations yet.")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);

    serveRules(standIn);
    standIn.answer("GET", `/api/biz-trade-recommendations/${RULES}`, { status: 500, body: { detail: "down" } });
    await page.goto(`${appUrl}/insights?open=${RULES}`);
    await expect(card(page, RULES).getByRole("alert")).toHaveText("Failed to fetch trade recommendations");

    standIn.answer("POST", "/api/biz-generate-trade-recommendations/KO", { status: 500, body: { detail: "boom" } });
    await hydrated(page);
    await page.getByLabel("Generate for a ticker").fill("KO");
    await page.getByRole("button", { name: "Generate" }).click();
    await expectToast(page, "An unexpected error occurred", 3000);
  });

  test("entering /insights always shows fresh data (no-store), fetch all reloads every card in place, cached recommendation keys are dropped", async ({
    page,
  }) => {
    await openInsights(page, trader, appUrl);
    await hydrated(page);
    const rules = card(page, RULES);
    await expect(rules.getByTestId("count")).toHaveText("9 puts");
    await rules.getByRole("link", { name: `Expand ${RULES}` }).click();
    await expect(rules.getByTestId("option-card")).toHaveCount(5);

    for (const path of ["/insights", `/insights.data?open=${RULES}`, "/recommendation/910001"]) {
      const res = await page.request.get(appUrl + path);
      expect(res.status(), path).toBe(200);
      expect(res.headers()["cache-control"], path).toBe("private, no-store");
    }

    // Fetch all: new figures for every card, without reloading the page.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    serveRules(standIn, [ruleTopLine({ trade_recommendation_count: 7, current_price: 101.5 })]);
    standIn.answer("GET", `/api/biz-trade-recommendations/${RULES}`, { status: 200, body: [] });
    await page.getByRole("link", { name: "Fetch all recommendations" }).click();
    await expect(rules.getByTestId("count")).toHaveText("7 puts");
    await expect(rules.getByTestId("price")).toHaveText("101.50");
    await expect(rules.getByText(`No put of ${RULES} passes your filters right now.`)).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);

    // Leaving and coming back loads again, and drops the locally cached recommendation keys.
    await nav(page).getByRole("link", { name: "Watchlist" }).click();
    await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
    await page.evaluate(() => {
      localStorage.setItem("tradeRecommendations-RULES", "[]");
      localStorage.setItem("tradeRecommendationsTopLine-RULES", "{}");
      localStorage.setItem("profileImage", "kept");
    });
    serveRules(standIn, [ruleTopLine({ trade_recommendation_count: 5 })]);
    await nav(page).getByRole("link", { name: "Insights" }).click();
    await expect(rules.getByTestId("count")).toHaveText("5 puts");
    expect(
      await page.evaluate(() =>
        ["tradeRecommendations-RULES", "tradeRecommendationsTopLine-RULES", "profileImage"].map((k) =>
          localStorage.getItem(k),
        ),
      ),
    ).toEqual([null, null, "kept"]);
  });

  test.describe("requests held back by the test", () => {
    // A service worker's own fetches are out of the test's reach; these tests hold the page's requests.
    test.use({ serviceWorkers: "block" });

    test("a spinner while fetch all reloads, and while the list loads coming from another screen", async ({ page }) => {
      await openInsights(page, trader, appUrl);
      await hydrated(page);
      const rules = card(page, RULES);
      let release!: () => void;
      let held = new Promise<void>((resolve) => (release = resolve));
      await page.context().route(/\/insights\.data/, async (route) => {
        await held;
        await route.continue();
      });
      serveRules(standIn, [ruleTopLine({ trade_recommendation_count: 8 })]);
      await page.getByRole("link", { name: "Fetch all recommendations" }).click();
      const fetching = page.getByRole("status").filter({ hasText: "Fetching all recommendations" });
      await expect(fetching).toBeVisible();
      await expect(rules.getByTestId("count")).toHaveText("9 puts");
      release();
      await expect(rules.getByTestId("count")).toHaveText("8 puts");
      await expect(fetching).toHaveCount(0);

      await nav(page).getByRole("link", { name: "Watchlist" }).click();
      await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
      held = new Promise<void>((resolve) => (release = resolve));
      await nav(page).getByRole("link", { name: "Insights" }).click();
      const loading = page.getByRole("status").filter({ hasText: "Loading recommendations" });
      await expect(loading).toBeVisible();
      release();
      await expect(page.getByRole("heading", { name: "Recommendations", level: 1 })).toBeVisible();
      await expect(loading).toHaveCount(0);
      await page.context().unrouteAll({ behavior: "wait" });
    });
  });

  test.describe("JavaScript off", () => {
    test.use({ javaScriptEnabled: false });

    test("the same option-card rules and strike filter, by the form's Apply; fetch all and errors", async ({
      page,
    }) => {
      await openInsights(page, trader, appUrl);
      const rules = card(page, RULES);
      await rules.getByRole("link", { name: `Expand ${RULES}` }).click();
      await expectRuleCards(rules);

      await chips(rules)
        .filter({ hasText: chipText(D2) })
        .click();
      await page.getByRole("spinbutton", { name: "Max strike" }).fill("75");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(new RegExp(`\\?max=75&open=${RULES}&date=${D2}$`));
      await expect(selectedChip(rules)).toHaveText(chipText(D3));
      expect(await shownStrikes(rules)).toEqual(["$75.00", "$70.00"]);
      // The reset date is what the form carries on.
      await page.getByRole("spinbutton", { name: "Max strike" }).fill("");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(new RegExp(`\\?open=${RULES}&date=${D3}$`));
      await expect(selectedChip(rules)).toHaveText(chipText(D3));

      serveRules(standIn, [ruleTopLine({ trade_recommendation_count: 3 })]);
      await page.getByRole("link", { name: "Fetch all recommendations" }).click();
      await expect(rules.getByTestId("count")).toHaveText("3 puts");

      standIn.answer("POST", "/api/biz-generate-trade-recommendations/KO", { status: 503, body: { detail: "busy" } });
      await page.getByLabel("Generate for a ticker").fill("KO");
      await page.getByRole("button", { name: "Generate" }).click();
      await expectStaticToast(page, "An unexpected error occurred");
    });
  });
});
