import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { holdFormSchema, holdScripts } from "./support/hydration.ts";
import {
  centerOf,
  createTrader,
  expectToast,
  Finger,
  listReady,
  recordToasts,
  row,
  shownTickers,
  signInAs,
  watchlistOf,
} from "./support/watchlist.ts";

/**
 * The watchlist (docs/product.md#screens-watchlist, #screens-watchlist-edit, #screens-watchlist-add), on a phone
 * (Pixel 7: touch, small screen). Every test signs in as its own new trader, so tests never
 * depend on each other's rows.
 */
test.describe.configure({ timeout: 90_000 });

/** The list's two colours (app/styles/app.css: --grey, --green), as the browser computes them. */
const GREY = "rgb(148, 163, 184)";
const GREEN = "rgb(34, 197, 94)";

test.describe("JavaScript on", () => {
  test.beforeEach(async ({ page }) => {
    await recordToasts(page);
  });

  test("rows show ticker, initials, price coloured by average IV, IV with 1 decimal, levels with 0 and their colours, and the age", async ({
    page,
  }) => {
    const trader = await createTrader([
      // Average IV far above any price: the price is green. Levels straddle the price.
      {
        ticker: "AAPL",
        base_iv: 5000.26,
        conservative_iv: 5000.2,
        buy_level_one: 1.4,
        buy_level_two: 9_999_999,
        buy_level_three: 2,
        buy_level_four: 5_000_000,
      },
      // Average IV of 0: grey price.
      {
        ticker: "KO",
        base_iv: 0,
        conservative_iv: 0,
        buy_level_one: 0,
        buy_level_two: 0,
        buy_level_three: 0,
        buy_level_four: 0,
      },
    ]);
    const [aapl, ko] = await watchlistOf(trader);
    await signInAs(page, trader);
    await listReady(page);

    const first = row(page, "AAPL");
    await expect(first.locator(".ticker")).toHaveText("AAPL");
    await expect(first.locator(".stock-logo")).toHaveText("AA");
    const price = first.locator(".price");
    await expect(price).toHaveText(formatted(aapl!.stock.current_price, 2));
    await expect(price).toHaveClass(/price--green/);
    // Not by colour alone: a green price is underlined, and says so to a screen reader.
    await expect(price).toHaveCSS("text-decoration-line", "underline");
    await expect(first.locator(".main")).toHaveAccessibleName(/, below intrinsic value/);
    await expect(first.locator(".name")).toHaveText("Apple Inc.");
    await expect(first.locator(".iv")).toHaveText("Intrinsic value 5,000.2");
    const levels = first.locator(".level");
    // A level at or above the price is reached: green, underlined, and "(reached)" to a screen reader.
    await expect(levels).toHaveText([
      "1st buy level 1",
      "2nd buy level (reached) 9,999,999",
      "3rd buy level 2",
      "4th buy level (reached) 5,000,000",
    ]);
    await expect(levels.nth(0)).not.toHaveClass(/level--green/);
    await expect(levels.nth(0)).toHaveCSS("color", GREY);
    await expect(levels.nth(0)).toHaveCSS("text-decoration-line", "none");
    await expect(levels.nth(1)).toHaveClass(/level--green/);
    await expect(levels.nth(1)).toHaveCSS("color", GREEN);
    await expect(levels.nth(1)).toHaveCSS("text-decoration-line", "underline");
    // The levels' names are heard, not seen: the row's link says them, and they take no room.
    await expect(first.locator(".main")).toHaveAccessibleName(/1st buy level 1 ?2nd buy level \(reached\) 9,999,999/);
    expect(
      await levels
        .nth(0)
        .locator("span")
        .evaluate((name) => name.getBoundingClientRect().width),
    ).toBeLessThan(2);
    await expect(first.locator(".age")).toHaveText(/^\d+ (second|minute|hour|day)s? ago$/);

    const koPrice = row(page, "KO").locator(".price");
    await expect(koPrice).toHaveText(formatted(ko!.stock.current_price, 2));
    await expect(koPrice).toHaveClass(/price--grey/);
    await expect(koPrice).toHaveCSS("text-decoration-line", "none");
    await expect(row(page, "KO").locator(".main")).not.toHaveAccessibleName(/below intrinsic value/);
    await expect(row(page, "KO").locator(".iv")).toHaveText("Intrinsic value 0.0");
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL", "KO"]);
  });

  test("a price's age moves on with the browser's clock, without a reload", async ({ page }) => {
    const trader = await createTrader(["AAPL", "KO"]);
    await page.clock.install();
    await signInAs(page, trader);
    await listReady(page);
    const age = row(page, "KO").locator(".age");
    await expect(age).toHaveText(/^\d+ (second|minute|hour)s? ago$/);
    // Every age text follows one clock (AgeText); a day later each says so.
    await page.clock.fastForward("24:00:00");
    await expect(age).toHaveText(/^1 day ago$/);
    await expect(row(page, "AAPL").locator(".age")).toHaveText(/^1 day ago$/);
  });

  test("search filters by ticker, case-insensitive, and Escape clears it", async ({ page }) => {
    const trader = await createTrader(["AAPL", "MSFT", "PYPL", "KO"]);
    await signInAs(page, trader);
    await listReady(page);
    const search = page.getByRole("searchbox", { name: "Search by ticker" });
    await search.fill("p");
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL", "PYPL"]);
    await expect(page).toHaveURL(/\?q=p$/);
    await search.fill("ms");
    await expect.poll(() => shownTickers(page)).toEqual(["MSFT"]);
    await search.fill("zzz");
    await expect(page.getByText("No stock in your watchlist matches “zzz”.")).toBeVisible();
    await search.press("Escape");
    await expect(search).toHaveValue("");
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL", "MSFT", "PYPL", "KO"]);
    await expect(page).toHaveURL(/\/user-stocks$/);
  });

  test("the recommendation switch saves at once, says so for 2 s, and survives a reload", async ({ page }) => {
    const trader = await createTrader(["MSFT", "KO"]);
    await signInAs(page, trader);
    await listReady(page);
    const toggle = row(page, "KO").getByRole("switch", { name: "Recommendations for KO" });
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    const scrolled = await page.evaluate(() => window.scrollY);
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await expectToast(page, "Recommendation setting updated.", 2000);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    await expect
      .poll(async () => (await watchlistOf(trader)).find((r) => r.stock.ticker === "KO")?.generate_recommendation)
      .toBe(true);

    // While the list reloads its data (here held back by the test), the header shows a spinner.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.context().route(/\/user-stocks\.data/, async (route) => {
      if (route.request().method() === "GET") await held;
      await route.continue();
    });
    await toggle.click();
    const spinner = page.getByRole("status").filter({ hasText: "Loading the watchlist" });
    await expect(spinner).toBeVisible();
    release();
    await expect(spinner).toHaveCount(0);
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await expect
      .poll(async () => (await watchlistOf(trader)).find((r) => r.stock.ticker === "KO")?.generate_recommendation)
      .toBe(true);
    await page.context().unrouteAll({ behavior: "wait" });

    // Coming from another screen, the spinner shows until the list has loaded.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trades" }).click();
    await expect(page).toHaveURL(/\/portfolio$/);
    let releaseList!: () => void;
    const listHeld = new Promise<void>((resolve) => (releaseList = resolve));
    await page.context().route(/\/user-stocks\.data/, async (route) => {
      await listHeld;
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Watchlist" }).click();
    const loading = page.getByRole("status").filter({ hasText: "Loading the watchlist" });
    await expect(loading).toBeVisible();
    releaseList();
    await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
    await expect(loading).toHaveCount(0);
    await page.context().unrouteAll({ behavior: "wait" });
    await page.reload();
    await expect(row(page, "KO").getByRole("switch", { name: "Recommendations for KO" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    await expect(row(page, "MSFT").getByRole("switch")).toHaveAttribute("aria-checked", "false");
  });

  test("tapping a row expands its daily chart; the chart code loads only then", async ({ page }) => {
    const chartCode: string[] = [];
    page.on("request", (request) => {
      if (/lightweight-charts|price-chart/.test(request.url())) chartCode.push(request.url());
    });
    const history: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/resources/stock-history/")) history.push(request.url());
    });
    const trader = await createTrader(["AAPL", "MSFT"]);
    await signInAs(page, trader);
    await listReady(page);
    await expect(row(page, "AAPL")).toBeVisible();
    expect(chartCode).toEqual([]);

    const main = row(page, "AAPL").locator(".main");
    await expect(main).toHaveAttribute("aria-expanded", "false");
    await main.tap();
    await expect(main).toHaveAttribute("aria-expanded", "true");
    const chart = row(page, "AAPL").locator("figure.price-chart");
    await expect(chart).toHaveAttribute("data-state", "ready");
    await expect(chart.locator("canvas").first()).toBeVisible();
    await expect(chart.locator("figcaption")).toHaveText(/^AAPL daily close from [\d,]+\.\d\d on /);
    expect(chartCode.some((url) => url.includes("lightweight-charts"))).toBe(true);
    expect(history).toEqual([expect.stringMatching(/\/resources\/stock-history\/AAPL$/)]);
    // The dark theme: the chart's own background.
    expect(await chart.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(19, 28, 46)");

    // One row open at a time; a second tap closes it. Tapping does not navigate.
    await row(page, "MSFT").locator(".main").tap();
    await expect(row(page, "MSFT").locator("figure.price-chart")).toHaveAttribute("data-state", "ready");
    await expect(row(page, "AAPL").locator("figure.price-chart")).toHaveCount(0);
    await row(page, "MSFT").locator(".main").tap();
    await expect(row(page, "MSFT").locator("figure.price-chart")).toHaveCount(0);
    await expect(page).toHaveURL(/\/user-stocks$/);
  });

  test("a long press (500 ms, finger still) opens the edit page; moving the finger cancels it", async ({ page }) => {
    const trader = await createTrader(["AAPL", "KO"]);
    await signInAs(page, trader);
    await listReady(page);

    // Moving 15 px sideways while holding: not a long press, and not far enough to be a swipe action.
    const moved = await Finger.down(page, await centerOf(row(page, "KO").locator(".main")));
    await moved.move(-15, 0, 3);
    await page.waitForTimeout(900); // hold well past 500 ms
    await moved.up();
    await expect(page).toHaveURL(/\/user-stocks$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // Held still: the edit page opens while the finger is still down.
    const finger = await Finger.down(page, await centerOf(row(page, "AAPL").locator(".main")));
    await expect(page).toHaveURL(/\/user-stock\/AAPL$/);
    await finger.up();
    await expect(page.getByRole("heading", { name: "Edit Stock" })).toBeVisible();
  });

  test("swipe left: the background shows from 80 px; past 100 px the delete confirmation opens; deleting says so", async ({
    page,
  }) => {
    const trader = await createTrader(["AAPL", "KO", "MSFT"]);
    await signInAs(page, trader);
    await listReady(page);
    const track = row(page, "KO").locator(".track");
    const reveal = row(page, "KO").locator(".reveal--left");
    // Nothing is drawn behind a row before it is first swiped (ADR 0045).
    await expect(row(page, "KO").locator(".reveal")).toHaveCount(0);

    // A short swipe (60 px) snaps back and does nothing.
    let finger = await Finger.down(page, await centerOf(row(page, "KO").locator(".main")));
    await finger.move(-60);
    await expect(track).not.toHaveAttribute("data-swipe");
    await finger.up();
    await expect(page.getByRole("dialog")).toHaveCount(0);

    finger = await Finger.down(page, await centerOf(row(page, "KO").locator(".main")));
    await finger.move(-90);
    await expect(track).toHaveAttribute("data-swipe", "hint-left");
    await expect(reveal).toHaveCSS("opacity", "1");
    await expect(reveal).toHaveText("Delete");
    await finger.move(-40);
    await finger.up();

    const dialog = page.getByRole("dialog", { name: "Delete KO?" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\?delete=KO$/);
    await expect(row(page, "KO").locator(".surface")).not.toHaveAttribute("style", /translateX/);
    await expect(dialog).toContainText("The Coca-Cola Company (KO) will be removed from your watchlist.");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "KO deleted from Watchlist.", 2000);
    await expect(dialog).toHaveCount(0);
    await expect(row(page, "KO")).toHaveCount(0);
    await expect(page).toHaveURL(/\/user-stocks$/);
    expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["AAPL", "MSFT"]);
  });

  test("the delete confirmation is a modal dialog: focus stays inside, Escape and Cancel close it without deleting", async ({
    page,
  }) => {
    const trader = await createTrader(["AAPL", "KO"]);
    await signInAs(page, trader);
    await listReady(page);
    await page.goto("/user-stocks?delete=AAPL");
    const dialog = page.getByRole("dialog", { name: "Delete AAPL?" });
    await expect(dialog).toBeVisible();
    await expect.poll(() => dialog.evaluate((el) => el.matches(":modal"))).toBe(true);
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/user-stocks$/);

    // From the row's panel: Delete, then Cancel.
    await row(page, "AAPL").locator(".main").tap();
    await row(page, "AAPL").getByRole("link", { name: "Delete" }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["AAPL", "KO"]);
  });

  test("reorder mode: drag a handle and use the arrows; Finish Reorder saves the order with 'Stocks reordered.'", async ({
    page,
  }) => {
    const sortableCode: string[] = [];
    page.on("request", (request) => {
      if (/\/sortable\.esm|sortablejs/.test(request.url())) sortableCode.push(request.url());
    });
    const trader = await createTrader(["AAPL", "MSFT", "KO", "JPM"]);
    await signInAs(page, trader);
    await listReady(page);
    expect(sortableCode).toEqual([]);
    await page.getByRole("link", { name: "Reorder" }).click();
    await expect(page.getByRole("button", { name: "Finish Reorder" })).toBeVisible();
    await expect(page.getByRole("searchbox")).toHaveCount(0);
    await expect(page.locator(".stock-list")).toHaveAttribute("data-sortable", "ready");
    expect(sortableCode.length).toBeGreaterThan(0);

    // Drag AAPL's handle down past KO.
    const handle = row(page, "AAPL").locator(".drag-handle");
    const start = await centerOf(handle);
    const target = await centerOf(row(page, "KO"));
    const finger = await Finger.down(page, start);
    await finger.move(0, target.y - start.y + 20, 16);
    await finger.up();
    await expect.poll(() => shownTickers(page)).toEqual(["MSFT", "KO", "AAPL", "JPM"]);

    // And JPM one up with its arrow.
    await row(page, "JPM").getByRole("button", { name: "Move JPM up" }).click();
    await expect.poll(() => shownTickers(page)).toEqual(["MSFT", "KO", "JPM", "AAPL"]);
    // Nothing is saved before Finish Reorder.
    expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["AAPL", "MSFT", "KO", "JPM"]);

    await page.getByRole("button", { name: "Finish Reorder" }).click();
    await expectToast(page, "Stocks reordered.", 2000);
    await expect(page).toHaveURL(/\/user-stocks$/);
    await expect(page.getByRole("link", { name: "Reorder" })).toBeVisible();
    const saved = await watchlistOf(trader);
    expect(saved.map((r) => r.stock.ticker)).toEqual(["MSFT", "KO", "JPM", "AAPL"]);
    expect(saved.map((r) => r.sort_order)).toEqual([0, 1, 2, 3]);
    await page.reload();
    await expect.poll(() => shownTickers(page)).toEqual(["MSFT", "KO", "JPM", "AAPL"]);
  });

  test("add a stock: the ticker is cleaned as typed, the name is looked up, values keep only digits and one point", async ({
    page,
  }) => {
    const trader = await createTrader(["AAPL"]);
    await signInAs(page, trader);
    await listReady(page);
    await page.getByRole("link", { name: "Add stock" }).click();
    await expect(page).toHaveURL(/\/add-user-stock$/);
    await expect(page.getByRole("heading", { name: "Add Stock" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);

    const ticker = page.getByLabel("Ticker Symbol");
    await expect(ticker).toHaveAttribute("placeholder", "E.g., AAPL.");
    await ticker.pressSequentially("ms-ft ");
    await expect(ticker).toHaveValue("MSFT");
    const name = page.getByLabel("Stock Name");
    await expect(name).toHaveAttribute("readonly", "");
    await expect(name).toHaveValue("Microsoft Corporation");

    await page.getByLabel("Base Value").pressSequentially("4a50.5.5");
    await expect(page.getByLabel("Base Value")).toHaveValue("450.55");
    await page.getByLabel("Cons Value").fill("400");
    await page.getByLabel("1st buy level").fill("410");
    await page.getByLabel("2nd buy level").fill("390");
    // 3rd and 4th left empty: they count as 0.
    await page.getByRole("button", { name: "Add Stock" }).click();

    await expect(page).toHaveURL(/\/user-stocks$/);
    await expectToast(page, "MSFT added!", 1000);
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL", "MSFT"]);
    const msft = (await watchlistOf(trader)).find((r) => r.stock.ticker === "MSFT")!;
    expect(msft).toMatchObject({
      base_iv: 450.55,
      conservative_iv: 400,
      buy_level_one: 410,
      buy_level_two: 390,
      buy_level_three: 0,
      buy_level_four: 0,
    });
    expect(msft.average_iv).toBeCloseTo(425.275, 6);
  });

  test("adding a duplicate or an unknown ticker keeps every typed value and says why", async ({ page }) => {
    const trader = await createTrader(["AAPL"]);
    await signInAs(page, trader);
    await listReady(page);
    await page.goto("/add-user-stock");
    await page.getByLabel("Ticker Symbol").fill("aapl");
    await expect(page.getByLabel("Stock Name")).toHaveValue("Apple Inc.");
    await page.getByLabel("Base Value").fill("250");
    await page.getByLabel("4th buy level").fill("170.5");
    await page.getByRole("button", { name: "Add Stock" }).click();
    await expectToast(page, "AAPL is already in your watchlist", 1000);
    await expect(page.locator("#add-user-stock")).toContainText("AAPL is already in your watchlist");
    await expect(page).toHaveURL(/\/add-user-stock$/);
    await expect(page.getByLabel("Ticker Symbol")).toHaveValue("AAPL");
    await expect(page.getByLabel("Base Value")).toHaveValue("250");
    await expect(page.getByLabel("4th buy level")).toHaveValue("170.5");

    await page.getByLabel("Ticker Symbol").fill("ZZQQ9");
    await expect(page.getByText("No company found for ZZQQ9.")).toBeVisible();
    await expect(page.getByLabel("Stock Name")).toHaveValue("");
    await page.getByRole("button", { name: "Add Stock" }).click();
    await expect(page.getByText(/Unknown ticker 'ZZQQ9'/).first()).toBeVisible();
    await expect(page.getByLabel("Ticker Symbol")).toHaveValue("ZZQQ9");
    await expect(page.getByLabel("Base Value")).toHaveValue("250");
    expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["AAPL"]);
  });

  test("a ticker typed before the page's scripts ran is looked up once they run", async ({ browser }) => {
    const trader = await createTrader(["AAPL"]);
    // No service worker: it would answer the scripts from its cache, past holdScripts.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await signInAs(page, trader);
    const release = await holdScripts(page);
    await page.goto("/add-user-stock", { waitUntil: "domcontentloaded" });
    await page.getByLabel("Ticker Symbol").fill("msft");
    await expect(page.getByLabel("Stock Name")).toHaveValue("");
    release();
    await expect(page.getByLabel("Stock Name")).toHaveValue("Microsoft Corporation");
    await expect(page.getByLabel("Ticker Symbol")).toHaveValue("MSFT");
    await context.close();
  });

  test("a field left before the form's checks have loaded is checked once they arrive", async ({ browser }) => {
    const trader = await createTrader(["AAPL"]);
    // No service worker: it would answer the schema from its cache, past the hold below.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await signInAs(page, trader);
    // Held, to leave a field before it arrives.
    const release = await holdFormSchema(page, "stock-schemas", "/add-user-stock");
    const ticker = page.getByLabel("Ticker Symbol");
    await ticker.focus();
    await page.getByLabel("Base Value").focus();
    await expect(ticker).not.toHaveAttribute("aria-invalid", "true");

    release();
    await expect(page.getByText("Ticker Symbol is required")).toBeVisible();
    await expect(ticker).toHaveAttribute("aria-invalid", "true");
    // Base Value was not left yet: it is not judged.
    await expect(page.getByLabel("Base Value")).not.toHaveAttribute("aria-invalid", "true");
    await context.close();
  });

  test("edit: name, ticker, price and last update; Average Value follows the IVs; saving says so", async ({ page }) => {
    const trader = await createTrader([{ ticker: "JPM", base_iv: 200, conservative_iv: 180 }]);
    const [jpm] = await watchlistOf(trader);
    await signInAs(page, trader);
    await listReady(page);
    await page.goto("/user-stock/jpm");
    await expect(page.getByRole("heading", { name: "Edit Stock" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    const summary = page.getByRole("region", { name: "Stock" });
    await expect(summary).toContainText("JPMorgan Chase & Co.");
    await expect(summary).toContainText("JPM");
    await expect(summary).toContainText(formatted(jpm!.stock.current_price, 2));
    // Green under an average IV of 190 is said and underlined too (ADR 0050), grey is neither.
    const below = 190 > jpm!.stock.current_price;
    const shownPrice = summary.locator("dd.price");
    await expect(shownPrice).toHaveText(
      `${formatted(jpm!.stock.current_price, 2)}${below ? ", below intrinsic value" : ""}`,
    );
    await expect(shownPrice).toHaveCSS("text-decoration-line", below ? "underline" : "none");
    await expect(summary).toContainText(/Last updated\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
    await expect(page.getByRole("heading", { name: "Intrinsic Values" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Buy levels" })).toBeVisible();
    for (const label of ["1st buy level", "2nd buy level", "3rd buy level", "4th buy level"])
      await expect(page.getByLabel(label)).toBeVisible();

    const average = page.getByLabel("Average Value");
    await expect(average).toHaveAttribute("readonly", "");
    await expect(average).toHaveValue("190.0");
    await page.getByLabel("Base Value").fill("300");
    await expect(average).toHaveValue("240.0");
    await page.getByLabel("Cons Value").fill("99999999");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Cons Value must be at most 9,999,999")).toBeVisible();
    await page.getByLabel("Cons Value").fill("250.5");
    await page.getByLabel("2nd buy level").fill("");
    await page.getByRole("button", { name: "Save Changes" }).click();

    await expect(page).toHaveURL(/\/user-stocks$/);
    await expectToast(page, "JPM updated successfully!", 1000);
    await expect(row(page, "JPM").locator(".iv")).toHaveText("Intrinsic value 275.3");
    const saved = (await watchlistOf(trader))[0]!;
    expect(saved).toMatchObject({ base_iv: 300, conservative_iv: 250.5, buy_level_two: 0 });
  });

  test("the edit page of a ticker not in the list goes back with 'User Stock not found!'", async ({ page }) => {
    const trader = await createTrader(["AAPL"]);
    await signInAs(page, trader);
    await listReady(page);
    await page.goto("/user-stock/MSFT");
    await expect(page).toHaveURL(/\/user-stocks$/);
    await expectToast(page, "User Stock not found!");
  });

  test("delete from the edit page, and the close button goes back", async ({ page }) => {
    const trader = await createTrader(["AAPL", "KO"]);
    await signInAs(page, trader);
    await listReady(page);
    await row(page, "KO").locator(".main").tap();
    await row(page, "KO").getByRole("link", { name: "Edit" }).click();
    await expect(page).toHaveURL(/\/user-stock\/KO$/);
    await page.getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/user-stocks$/);

    await page.goto("/user-stock/KO");
    await page.getByRole("link", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete KO?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/user-stocks$/);
    await expectToast(page, "KO deleted from Watchlist.");
    const shown = await page.evaluate(() =>
      (window as unknown as { __toasts: { text: string }[] }).__toasts.map((t) => t.text),
    );
    expect(shown).not.toContain("User Stock not found!");
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL"]);
  });

  test("an empty watchlist invites adding a stock", async ({ page }) => {
    const trader = await createTrader([]);
    await signInAs(page, trader);
    await listReady(page);
    await expect(page.getByText("Your watchlist is empty.")).toBeVisible();
    await page.getByRole("link", { name: "Add a stock" }).click();
    await expect(page).toHaveURL(/\/add-user-stock$/);
  });
});

test.describe("JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("search is a form; the switch, delete with its confirmation step, and the row's edit link all work", async ({
    page,
  }) => {
    const trader = await createTrader(["AAPL", "KO", "PYPL"]);
    await signInAs(page, trader);

    await page.getByRole("searchbox", { name: "Search by ticker" }).fill("p");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\?q=p$/);
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL", "PYPL"]);
    await page.goto("/user-stocks");

    await row(page, "KO").getByRole("switch", { name: "Recommendations for KO" }).click();
    await expectStaticToast(page, "Recommendation setting updated.");
    await expect(row(page, "KO").getByRole("switch")).toHaveAttribute("aria-checked", "true");
    // The list's one switch form posted KO's id alone: only KO changed.
    const recommended = async () => (await watchlistOf(trader)).map((r) => [r.stock.ticker, r.generate_recommendation]);
    expect(await recommended()).toEqual([
      ["AAPL", false],
      ["KO", true],
      ["PYPL", false],
    ]);
    // Pressed again, it posts the list's other switch form: off.
    await row(page, "KO").getByRole("switch", { name: "Recommendations for KO" }).click();
    await expect(row(page, "KO").getByRole("switch")).toHaveAttribute("aria-checked", "false");
    expect((await recommended()).every(([, on]) => on === false)).toBe(true);

    // Tapping a row follows its link: the panel opens with Edit and Delete.
    await row(page, "KO").locator(".main").click();
    await expect(page).toHaveURL(/\?open=KO$/);
    await expect(row(page, "KO").getByText("The price chart needs JavaScript.")).toBeVisible();
    await expect(row(page, "KO").locator(".price-chart .spinner__ring")).toBeHidden();
    await row(page, "KO").getByRole("link", { name: "Delete" }).click();
    await expect(page).toHaveURL(/open=KO&delete=KO$/);
    const dialog = page.getByRole("dialog", { name: "Delete KO?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/user-stocks$/);
    await expectStaticToast(page, "KO deleted from Watchlist.");
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL", "PYPL"]);

    await row(page, "AAPL").locator(".main").click();
    await row(page, "AAPL").getByRole("link", { name: "Edit" }).click();
    await expect(page).toHaveURL(/\/user-stock\/AAPL$/);
  });

  test("reorder mode offers move up and move down, each saved", async ({ page }) => {
    const trader = await createTrader(["AAPL", "MSFT", "KO"]);
    await signInAs(page, trader);
    await page.getByRole("link", { name: "Reorder" }).click();
    await expect(page).toHaveURL(/\?reorder=1$/);
    await expect(row(page, "AAPL").getByRole("button", { name: "Move AAPL up" })).toBeDisabled();
    await row(page, "AAPL").getByRole("button", { name: "Move AAPL down" }).click();
    await expect(page).toHaveURL(/\?reorder=1$/);
    await expectStaticToast(page, "Stocks reordered.");
    await expect.poll(() => shownTickers(page)).toEqual(["MSFT", "AAPL", "KO"]);
    await row(page, "KO").getByRole("button", { name: "Move KO up" }).click();
    await expect.poll(() => shownTickers(page)).toEqual(["MSFT", "KO", "AAPL"]);
    await page.getByRole("button", { name: "Finish Reorder" }).click();
    await expect(page).toHaveURL(/\/user-stocks$/);
    expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["MSFT", "KO", "AAPL"]);
  });

  test("add with the Look up button, and edit, without JavaScript", async ({ page }) => {
    const trader = await createTrader(["AAPL"]);
    await signInAs(page, trader);
    await page.getByRole("link", { name: "Add stock" }).click();
    await page.getByLabel("Ticker Symbol").fill("k.o");
    await page.getByLabel("Base Value").fill("70");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByLabel("Ticker Symbol")).toHaveValue("KO");
    await expect(page.getByLabel("Stock Name")).toHaveValue("The Coca-Cola Company");
    await expect(page.getByLabel("Base Value")).toHaveValue("70");
    await page.getByLabel("Cons Value").fill("6.5.0");
    await page.getByRole("button", { name: "Add Stock" }).click();
    await expect(page.getByText("Cons Value accepts only digits and one decimal point")).toBeVisible();
    await expect(page.getByLabel("Base Value")).toHaveValue("70");
    await page.getByLabel("Cons Value").fill("65");
    // Enter in a value field adds the stock (it is not taken as Look up).
    await page.getByLabel("Cons Value").press("Enter");
    await expect(page).toHaveURL(/\/user-stocks$/);
    await expectStaticToast(page, "KO added!", 1000);
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL", "KO"]);

    await page.goto("/user-stock/KO");
    await expect(page.getByLabel("Average Value")).toHaveValue("67.5");
    await page.getByLabel("1st buy level").fill("60");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page).toHaveURL(/\/user-stocks$/);
    await expectStaticToast(page, "KO updated successfully!", 1000);
    expect((await watchlistOf(trader)).find((r) => r.stock.ticker === "KO")?.buy_level_one).toBe(60);
  });
});

/**
 * Without JavaScript the flash toast is server-rendered; CSS fades it after its auto-close time
 * (its animation delay), so its presence and that time are checked, not its fleeting visibility.
 */
async function expectStaticToast(page: Page, text: string, autoCloseMs = 2000) {
  const shown = page.locator(".static-toast").filter({ hasText: text });
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute("style", new RegExp(`animation-delay: ?${autoCloseMs}ms`));
}

/** en-US grouping with fixed decimals, as the list shows numbers (docs/product.md#constants-display). */
function formatted(value: number, digits: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
