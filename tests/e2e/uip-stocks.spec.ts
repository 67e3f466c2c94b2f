import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import {
  centerOf,
  createTrader,
  expectToast,
  Finger,
  listReady,
  recordToasts,
  row,
  shownTickers,
  watchlistOf,
} from "./support/watchlist.ts";
import { ADMIN, categoryNamed, openUipList, UipFixture, uipList } from "./support/uip.ts";

/**
 * The UIP list (docs/product.md#screens-uip-list, #screens-uip-edit, #screens-uip-add; #states-lists, #states-ai;
 * #roles; #errors) on a phone (Pixel 7: touch, small screen), as a
 * trader (no UIP permission; a new one per test) and as the admin. The list is shared: tests that
 * change it add their own rows and restore the list afterwards (UipFixture).
 */
test.describe.configure({ timeout: 90_000 });

let fixture: UipFixture;
test.beforeEach(async () => {
  fixture = await UipFixture.start();
});
test.afterEach(async () => {
  await fixture.restore();
});

test.describe("JavaScript on, as a trader", () => {
  test.beforeEach(async ({ page }) => {
    await recordToasts(page);
  });

  test("rows in sort_order with the row rules and each category's icon; no 'Add Stock' or 'Reorder' for a trader", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await openUipList(page, trader);
    await listReady(page);
    const rows = await uipList(trader.token);
    await expect.poll(() => shownTickers(page)).toEqual(rows.map((r) => r.stock.ticker));

    const msft = rows.find((r) => r.stock.ticker === "MSFT")!;
    const shown = row(page, "MSFT");
    await expect(shown.locator(".price")).toHaveText(formatted(msft.stock.current_price, 2));
    await expect(shown.locator(".price")).toHaveClass(
      msft.average_iv > msft.stock.current_price ? /price--green/ : /price--grey/,
    );
    await expect(shown.locator(".name")).toHaveText("Microsoft Corporation");
    await expect(shown.locator(".iv")).toHaveText(`Intrinsic value ${formatted(msft.average_iv, 1)}`);
    await expect(shown.locator(".level")).toHaveText(
      [msft.buy_level_one, msft.buy_level_two, msft.buy_level_three, msft.buy_level_four].map(
        (level, i) =>
          `${["1st", "2nd", "3rd", "4th"][i]} buy level ${level >= msft.stock.current_price ? "(reached) " : ""}${formatted(level, 0)}`,
      ),
    );
    // Each category shows its name and icon kind (queen, buy, hold, speculative, avoid).
    for (const [ticker, name, icon] of [
      ["MSFT", "Queen", "queen"],
      ["GOOGL", "Buy", "buy"],
      ["KO", "Hold", "hold"],
      ["NVDA", "Speculative", "speculative"],
      ["INTC", "Avoid", "avoid"],
    ] as const) {
      const badge = row(page, ticker).getByTestId("category");
      await expect(badge).toHaveText(`Category: ${name}`);
      await expect(badge.locator(`svg.uip-category-icon--${icon}`)).toBeVisible();
      // The icon is the list's one drawing of it, used by reference (ADR 0059): the reference resolves.
      expect(await drawnArea(badge.locator("svg use"))).toBeGreaterThan(50);
    }

    await expect(page.getByRole("button", { name: "Menu" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Add Stock" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Reorder" })).toHaveCount(0);
    // Without UPDATE a reorder address shows the list as usual.
    await page.goto("/uip-stocks?reorder=1");
    await expect(page.getByRole("button", { name: "Finish Reorder" })).toHaveCount(0);
    await expect(page.locator(".drag-handle")).toHaveCount(0);
  });

  test("category chips filter the list, 'Below IV' keeps stocks under their average IV, and the chip is in the URL", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await openUipList(page, trader);
    await listReady(page);
    const rows = await uipList(trader.token);
    const chips = page.getByRole("navigation", { name: "Categories" }).getByRole("link");
    await expect(chips.first()).toHaveAccessibleName(`All Categories ${rows.length}`);
    await expect(chips.nth(1)).toHaveAccessibleName(/^Below IV \d+$/);
    await expect(chips.nth(2)).toHaveAccessibleName(/^Queen \d+$/);
    await expect(chips.first()).toHaveAttribute("aria-current", "true");

    const hold = await categoryNamed("Hold");
    await page.getByRole("link", { name: /^Hold \d+$/ }).click();
    await expect(page).toHaveURL(new RegExp(`\\?category=${hold.id}$`));
    await expect(page.getByRole("link", { name: /^Hold \d+$/ })).toHaveAttribute("aria-current", "true");
    await expect
      .poll(() => shownTickers(page))
      .toEqual(rows.filter((r) => r.category_id === hold.id).map((r) => r.stock.ticker));

    // 'Below IV': exactly the rows whose price is green (below their average IV), as the page shows them.
    await page.getByRole("link", { name: /^All Categories/ }).click();
    await expect.poll(() => shownTickers(page)).toEqual(rows.map((r) => r.stock.ticker));
    const green = await page
      .locator("li.stock-row")
      .evaluateAll((items) =>
        items
          .filter((li) => li.querySelector(".price")?.classList.contains("price--green"))
          .map((li) => li.getAttribute("data-ticker")),
      );
    expect(green.length).toBeGreaterThan(0);
    expect(green.length).toBeLessThan(rows.length);
    await page.getByRole("link", { name: /^Below IV \d+$/ }).click();
    await expect(page).toHaveURL(/\?category=-2$/);
    await expect(page.getByRole("link", { name: /^Below IV \d+$/ })).toHaveAccessibleName(`Below IV ${green.length}`);
    // The chip and the URL change first; the rows follow on the next render.
    await expect.poll(() => shownTickers(page)).toEqual(green);
    const below = green;

    // Kept on reload, and 'All Categories' brings every row back.
    await page.reload();
    await expect.poll(() => shownTickers(page)).toEqual(below);
    await page.getByRole("link", { name: /^All Categories/ }).click();
    await expect(page).toHaveURL(/\/uip-stocks$/);
    await expect.poll(() => shownTickers(page)).toEqual(rows.map((r) => r.stock.ticker));
  });

  test("the search toggle opens a debounced ticker search; Escape closes and clears it", async ({ page }) => {
    const trader = await createTrader([]);
    await openUipList(page, trader);
    await listReady(page);
    const all = await shownTickers(page);
    await expect(page.getByRole("searchbox")).toHaveCount(0);
    await page.getByRole("link", { name: "Search" }).click();
    const search = page.getByRole("searchbox", { name: "Search by ticker" });
    await expect(search).toBeFocused();

    // The list follows 300 ms after the typing stops. "pl" is typed and the list read in one task of
    // the page, after React's own microtasks: no timer can run in between, however busy the machine.
    const atOnce = await search.evaluate(async (input: HTMLInputElement) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "pl");
      input.dispatchEvent(new Event("input", { bubbles: true }));
      for (let i = 0; i < 10; i++) await Promise.resolve();
      return [...document.querySelectorAll("li.stock-row")].map((li) => li.getAttribute("data-ticker") ?? "");
    });
    expect(atOnce).toEqual(all);
    await expect(search).toHaveValue("pl");
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL", "PLTR", "PYPL"]);
    await expect(page).toHaveURL(/[?&]q=pl(&|$)/);
    await search.fill("zzz");
    await expect(page.getByText("No UIP stock matches “zzz”.")).toBeVisible();

    // Search within a chip.
    await search.fill("a");
    await page.getByRole("link", { name: /^Queen \d+$/ }).click();
    await expect.poll(() => shownTickers(page)).toEqual(["AAPL"]);

    await search.press("Escape");
    await expect(page.getByRole("searchbox")).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&](q|search)=/);
    await expect.poll(() => shownTickers(page)).toEqual(["MSFT", "AAPL", "BRKB", "V"]);
    // Opened again, it starts empty.
    await page.getByRole("link", { name: "Search" }).click();
    await expect(page.getByRole("searchbox", { name: "Search by ticker" })).toHaveValue("");
    await page.getByRole("link", { name: "Close search" }).click();
    await expect(page.getByRole("searchbox")).toHaveCount(0);
  });

  test("the bell subscribes this user to price alerts for the stock, says so for 2 s, and survives a reload", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    const other = await createTrader([]);
    await openUipList(page, trader);
    await listReady(page);
    const bell = row(page, "KO").getByRole("switch", { name: "Price alerts for KO" });
    await expect(bell).toHaveAttribute("aria-checked", "false");
    expect(await drawnArea(bell.locator("use"))).toBeGreaterThan(50);
    await expect(bell.locator("svg")).toHaveCSS("fill", "none");
    await bell.click();
    await expect(bell).toHaveAttribute("aria-checked", "true");
    // On, the bell is filled, not only recoloured.
    await expect(bell.locator("svg")).not.toHaveCSS("fill", "none");
    await expectToast(page, "Price alerts on for KO.", 2000);
    await expect
      .poll(async () => (await uipList(trader.token)).find((r) => r.stock.ticker === "KO")?.price_alert)
      .toBe(true);
    // Someone else's bell is their own.
    expect((await uipList(other.token)).find((r) => r.stock.ticker === "KO")?.price_alert).toBe(false);

    await page.reload();
    await expect(row(page, "KO").getByRole("switch", { name: "Price alerts for KO" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    await row(page, "KO").getByRole("switch", { name: "Price alerts for KO" }).click();
    await expectToast(page, "Price alerts off for KO.", 2000);
    await expect
      .poll(async () => (await uipList(trader.token)).find((r) => r.stock.ticker === "KO")?.price_alert)
      .toBe(false);
  });

  test("swipe left without UIP_STOCK DELETE says 'You do not have permission to delete this stock.' and snaps back", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await openUipList(page, trader);
    await listReady(page);
    const track = row(page, "KO").locator(".track");
    const finger = await fingerOn(page, "KO");
    await finger.move(-90);
    await expect(track).toHaveAttribute("data-swipe", "hint-left");
    await expect(row(page, "KO").locator(".reveal--left")).toHaveText("Delete");
    await finger.move(-40);
    await finger.up();
    await expectToast(page, "You do not have permission to delete this stock.", 2000);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(row(page, "KO").locator(".surface")).not.toHaveAttribute("style", /translateX/);
    await expect(page).toHaveURL(/\/uip-stocks$/);
    // The confirmation's address says the same and offers nothing to confirm.
    await page.goto("/uip-stocks?delete=KO");
    const dialog = page.getByRole("dialog", { name: "Delete stock" });
    await expect(dialog).toContainText("You do not have permission to delete this stock.");
    await expect(dialog.getByRole("button", { name: "Delete" })).toHaveCount(0);
    await dialog.getByRole("link", { name: "Close" }).last().click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect((await uipList()).some((r) => r.stock.ticker === "KO")).toBe(true);
  });

  test("swipe right past 100 px asks to add the stock to the watchlist; it is added with the UIP values; twice is refused", async ({
    page,
  }) => {
    const trader = await createTrader(["AAPL"]);
    await openUipList(page, trader);
    await listReady(page);
    const uip = (await uipList(trader.token)).find((r) => r.stock.ticker === "JNJ")!;

    // 70 px: no hint, nothing happens.
    let finger = await fingerOn(page, "JNJ");
    await finger.move(70);
    await expect(row(page, "JNJ").locator(".track")).not.toHaveAttribute("data-swipe");
    await finger.up();
    await expect(page.getByRole("dialog")).toHaveCount(0);

    finger = await fingerOn(page, "JNJ");
    await finger.move(90);
    await expect(row(page, "JNJ").locator(".track")).toHaveAttribute("data-swipe", "hint-right");
    await expect(row(page, "JNJ").locator(".reveal--right")).toHaveText("Add to Watchlist");
    await finger.move(40);
    await finger.up();
    const dialog = page.getByRole("dialog", { name: "Add JNJ to your watchlist?" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\?add=JNJ$/);
    await expect(dialog).toContainText("Johnson & Johnson (JNJ) will be added to your watchlist");
    await expect(dialog).toContainText(`average intrinsic value ${formatted(uip.average_iv, 1)}`);
    await dialog.getByRole("button", { name: "Add to Watchlist" }).click();
    await expectToast(page, "JNJ added to your watchlist!", 2000);
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/uip-stocks$/);
    const added = (await watchlistOf(trader)).find((r) => r.stock.ticker === "JNJ")!;
    expect(added).toMatchObject({
      base_iv: uip.base_iv,
      conservative_iv: uip.conservative_iv,
      buy_level_one: uip.buy_level_one,
      buy_level_two: uip.buy_level_two,
      buy_level_three: uip.buy_level_three,
      buy_level_four: uip.buy_level_four,
    });

    // AAPL is in the watchlist already: the server's detail as a warning (docs/product.md#errors-lists).
    finger = await fingerOn(page, "AAPL");
    await finger.move(130);
    await finger.up();
    await page
      .getByRole("dialog", { name: "Add AAPL to your watchlist?" })
      .getByRole("button", { name: "Add to Watchlist" })
      .click();
    await expectToast(page, "AAPL is already in your watchlist", 2000);
    await expect(
      page.locator(".Toastify__toast--warning").filter({ hasText: "AAPL is already in your watchlist" }),
    ).toBeVisible();
    expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["AAPL", "JNJ"]);
  });

  test("tap expands the daily chart with the row's actions; long press opens the edit page, where saving is refused", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await openUipList(page, trader);
    await listReady(page);
    const main = row(page, "V").locator(".main");
    await main.tap();
    await expect(main).toHaveAttribute("aria-expanded", "true");
    await expect(row(page, "V").locator("figure.price-chart")).toHaveAttribute("data-state", "ready");
    const panel = row(page, "V").locator(".panel > .actions");
    await expect(panel.getByRole("link")).toHaveText(["AI analysis", "Add to Watchlist"]);
    await main.tap();
    await expect(row(page, "V").locator("figure.price-chart")).toHaveCount(0);

    const finger = await fingerOn(page, "V");
    await expect(page).toHaveURL(/\/uip-stock\/V$/);
    await finger.up();
    await expect(page.getByRole("heading", { name: "Edit Stock" })).toBeVisible();
    await expect(page.getByRole("note")).toHaveText(
      "You can look at these values, but your account cannot change UIP stocks.",
    );
    await expect(page.getByRole("link", { name: "Delete" })).toHaveCount(0);
    await page.getByLabel("Base Value").fill("1");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Not authorized to edit UIP stock", 1000);
    await expect(page.locator("form").getByText("Not authorized to edit UIP stock")).toBeVisible();
    await expect(page).toHaveURL(/\/uip-stock\/V$/);
    await expect(page.getByLabel("Base Value")).toHaveValue("1");
    await page.getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/uip-stocks$/);
  });

  test("'Add Stock' by its address sends a trader back with 'Not authorized to add UIP stock'; an unknown edit address goes back too", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await openUipList(page, trader);
    await page.goto("/add-uip-stock");
    await expect(page).toHaveURL(/\/uip-stocks$/);
    await expectToast(page, "Not authorized to add UIP stock");
    await page.goto("/uip-stock/SOFI");
    await expect(page).toHaveURL(/\/uip-stocks$/);
    await expectToast(page, "SOFI is not in the UIP list.");
  });

  test("AI analysis: opening starts with no text, 'Analysing ...' while it streams, then the text; closing cancels and clears", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await openUipList(page, trader);
    await listReady(page);
    await row(page, "AAPL").locator(".main").tap();
    await row(page, "AAPL").getByRole("link", { name: "AI analysis" }).click();
    const modal = page.getByRole("dialog", { name: "AI analysis: AAPL" });
    await expect(modal).toBeVisible();
    await expect(page).toHaveURL(/[?&]ai=AAPL$/);
    const body = modal.locator(".ai-text__body");
    await expect(body).toContainText("AAPL", { timeout: 20_000 });
    await expect(modal.getByRole("button", { name: "Analyse again" })).toBeVisible();
    const firstText = await body.textContent();
    expect(firstText!.length).toBeGreaterThan(80);

    // Held back by the test: the modal shows 'Analysing ...' and no old text.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const failed: string[] = [];
    page.on("requestfailed", (request) => {
      if (request.url().includes("/resources/ai/stock-analysis")) failed.push(request.failure()?.errorText ?? "");
    });
    await page.route("**/resources/ai/stock-analysis", async (route) => {
      await held;
      await route.continue().catch(() => {});
    });
    await modal.getByRole("link", { name: "Close" }).last().click();
    await expect(modal).toHaveCount(0);
    await expect(page).not.toHaveURL(/ai=/);
    await row(page, "AAPL").getByRole("link", { name: "AI analysis" }).click();
    await expect(modal).toBeVisible();
    await expect(modal.getByText("Analysing ...")).toBeVisible();
    await expect(modal.locator(".ai-text__body")).toHaveCount(0);
    await expect(modal.locator(".ai-text")).toHaveAttribute("aria-busy", "true");
    // Escape closes it while it streams: the request is cancelled.
    await page.keyboard.press("Escape");
    await expect(modal).toHaveCount(0);
    await expect.poll(() => failed.length).toBeGreaterThan(0);
    release();
    await page.unrouteAll({ behavior: "wait" });

    // A failure says the text of docs/product.md#errors.
    await page.route("**/resources/ai/stock-analysis", (route) =>
      route.fulfill({ status: 502, contentType: "application/json", body: '{"detail":"down"}' }),
    );
    await row(page, "AAPL").getByRole("link", { name: "AI analysis" }).click();
    await expect(modal.getByRole("alert")).toHaveText("Error fetching AI analysis.");
  });

  test("a scroll-to-top button appears once the list is scrolled", async ({ page }) => {
    const trader = await createTrader([]);
    await openUipList(page, trader);
    await listReady(page);
    const button = page.getByRole("link", { name: "Scroll to top" });
    await expect(button).toBeHidden();
    await page.mouse.wheel(0, 1200);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
    await expect(button).toBeVisible();
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(button).toBeHidden();
  });
});

test.describe("JavaScript on, as the admin", () => {
  test.beforeEach(async ({ page }) => {
    await recordToasts(page);
  });

  test("'Add Stock' from the menu: the category is required; the stock joins the end of the list with '{ticker} added!'", async ({
    page,
  }) => {
    await openUipList(page, ADMIN);
    await listReady(page);
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.getByRole("link", { name: "Reorder" })).toBeVisible();
    await page.getByRole("link", { name: "Add Stock" }).click();
    await expect(page).toHaveURL(/\/add-uip-stock$/);
    await expect(page.getByRole("heading", { name: "Add Stock" })).toBeVisible();

    const category = page.getByLabel("Category");
    await expect(category.locator("option").first()).toHaveText("Select a category");
    await expect(category).toHaveValue("");
    await page.getByLabel("Ticker Symbol").pressSequentially("x.om");
    await expect(page.getByLabel("Ticker Symbol")).toHaveValue("XOM");
    await expect(page.getByLabel("Stock Name")).toHaveValue("Exxon Mobil Corporation");
    await page.getByLabel("Base Value").fill("130");
    await page.getByLabel("Cons Value").fill("110.5");
    await page.getByLabel("1st buy level").fill("112");
    await page.getByRole("button", { name: "Add Stock" }).click();
    await expect(page.getByText("Category is required")).toBeVisible();
    await expect(page).toHaveURL(/\/add-uip-stock$/);

    await category.selectOption({ label: "Hold" });
    await page.getByRole("button", { name: "Add Stock" }).click();
    await expect(page).toHaveURL(/\/uip-stocks$/);
    await expectToast(page, "XOM added!", 1000);
    expect((await shownTickers(page)).at(-1)).toBe("XOM");
    await expect(row(page, "XOM").getByTestId("category")).toHaveText("Category: Hold");
    const xom = (await uipList()).find((r) => r.stock.ticker === "XOM")!;
    expect(xom).toMatchObject({ base_iv: 130, conservative_iv: 110.5, buy_level_one: 112, buy_level_four: 0 });
    expect(xom.average_iv).toBeCloseTo(120.25, 6);

    // A ticker already on the list keeps the form as typed and says why.
    await page.goto("/add-uip-stock");
    await page.getByLabel("Ticker Symbol").fill("XOM");
    await page.getByLabel("Category").selectOption({ label: "Buy" });
    await page.getByLabel("Base Value").fill("99");
    await page.getByRole("button", { name: "Add Stock" }).click();
    await expectToast(page, "XOM is already in the UIP list", 1000);
    await expect(page.locator("#add-uip-stock")).toContainText("XOM is already in the UIP list");
    await expect(page.getByLabel("Base Value")).toHaveValue("99");
    await expect(page.getByLabel("Category")).toHaveValue(String((await categoryNamed("Buy")).id));
  });

  test("edit by long press: category and values change, Average Value follows; '{ticker} updated successfully!'; delete from the edit page", async ({
    page,
  }) => {
    await fixture.add("PEP", "Buy", { base_iv: 200, conservative_iv: 180 });
    await openUipList(page, ADMIN);
    await listReady(page);
    const finger = await fingerOn(page, "PEP");
    await expect(page).toHaveURL(/\/uip-stock\/PEP$/);
    await finger.up();
    await expect(page.getByRole("heading", { name: "Edit Stock" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Stock" })).toContainText("PepsiCo, Inc.");
    await expect(page.getByRole("note")).toHaveCount(0);
    await expect(page.getByLabel("Category")).toHaveValue(String((await categoryNamed("Buy")).id));
    const average = page.getByLabel("Average Value");
    await expect(average).toHaveAttribute("readonly", "");
    await expect(average).toHaveValue("190.0");
    await page.getByLabel("Base Value").fill("300");
    await expect(average).toHaveValue("240.0");
    await page.getByLabel("Category").selectOption({ label: "Speculative" });
    await page.getByLabel("3rd buy level").fill("");
    await page.getByRole("button", { name: "Save Changes" }).click();

    await expect(page).toHaveURL(/\/uip-stocks$/);
    await expectToast(page, "PEP updated successfully!", 1000);
    await expect(row(page, "PEP").getByTestId("category")).toHaveText("Category: Speculative");
    await expect(row(page, "PEP").locator(".iv")).toHaveText("Intrinsic value 240.0");
    const saved = (await uipList()).find((r) => r.stock.ticker === "PEP")!;
    expect(saved).toMatchObject({ base_iv: 300, conservative_iv: 180, buy_level_three: 0, average_iv: 240 });

    // The edit page's Delete asks first, then leaves for the list.
    await page.goto("/uip-stock/PEP");
    await page.getByRole("link", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete PEP?" });
    await expect(dialog).toContainText("PepsiCo, Inc. (PEP) will be removed from the UIP list for everyone");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/uip-stocks$/);
    await expectToast(page, "PEP deleted from UIP stocks.", 2000);
    await expect(row(page, "PEP")).toHaveCount(0);
    expect((await uipList()).some((r) => r.stock.ticker === "PEP")).toBe(false);
  });

  test("swipe left deletes after the confirmation ('{ticker} deleted from UIP stocks.'); a row gone meanwhile gives 'Failed to delete stock.'", async ({
    page,
  }) => {
    await fixture.add("WMT", "Hold");
    const gone = await fixture.add("HD", "Hold");
    await openUipList(page, ADMIN);
    await listReady(page);
    const finger = await fingerOn(page, "WMT");
    await finger.move(-130);
    await finger.up();
    const dialog = page.getByRole("dialog", { name: "Delete WMT?" });
    await expect(dialog).toContainText("Walmart Inc. (WMT) will be removed from the UIP list for everyone");
    await expect(page).toHaveURL(/\?delete=WMT$/);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "WMT deleted from UIP stocks.", 2000);
    await expect(row(page, "WMT")).toHaveCount(0);
    await expect(page).toHaveURL(/\/uip-stocks$/);
    expect((await uipList()).some((r) => r.stock.ticker === "WMT")).toBe(false);

    // Someone else deletes HD while the confirmation is open.
    await row(page, "HD").locator(".main").tap();
    await row(page, "HD").getByRole("link", { name: "Delete" }).click();
    await fixture.remove(gone.id);
    await page.getByRole("dialog", { name: "Delete HD?" }).getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Failed to delete stock.", 2000);
  });

  test("reorder from the menu: drag and arrows, 'Finish Reorder' saves with 'Stocks reordered!'; a failure shows the server's detail", async ({
    page,
  }) => {
    const before = await uipList();
    const tickers = before.map((r) => r.stock.ticker);
    await openUipList(page, ADMIN);
    await listReady(page);
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("link", { name: "Reorder" }).click();
    await expect(page).toHaveURL(/\?reorder=1$/);
    await expect(page.getByRole("button", { name: "Finish Reorder" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Categories" })).toHaveCount(0);
    await expect(page.locator(".stock-list")).toHaveAttribute("data-sortable", "ready");

    // Drag the first row's handle down past the third.
    const [first, second, third] = tickers;
    const handle = row(page, first!).locator(".drag-handle");
    const start = await centerOf(handle);
    const target = await centerOf(row(page, third!));
    const finger = await Finger.down(page, start);
    await finger.move(0, target.y - start.y + 20, 16);
    await finger.up();
    await expect.poll(async () => (await shownTickers(page)).slice(0, 3)).toEqual([second, third, first]);
    await row(page, tickers.at(-1)!)
      .getByRole("button", { name: `Move ${tickers.at(-1)} up` })
      .click();
    const expected = [second!, third!, first!, ...tickers.slice(3, -2), tickers.at(-1)!, tickers.at(-2)!];
    await expect.poll(() => shownTickers(page)).toEqual(expected);
    // Nothing saved before Finish Reorder.
    expect((await uipList()).map((r) => r.stock.ticker)).toEqual(tickers);

    await page.getByRole("button", { name: "Finish Reorder" }).click();
    await expectToast(page, "Stocks reordered!", 2000);
    await expect(page).toHaveURL(/\/uip-stocks$/);
    expect((await uipList()).map((r) => r.stock.ticker)).toEqual(expected);

    // A row deleted by someone else while reordering: the provider refuses, its detail is a warning.
    const extra = await fixture.add("CVX", "Avoid");
    await page.reload();
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("link", { name: "Reorder" }).click();
    await row(page, "CVX").getByRole("button", { name: "Move CVX up" }).click();
    await fixture.remove(extra.id);
    await page.getByRole("button", { name: "Finish Reorder" }).click();
    await expectToast(page, "UIP stock not found", 2000);
    await expect(page.getByRole("button", { name: "Finish Reorder" })).toBeVisible();
  });
});

test.describe("JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("a trader: chips and search are links and forms; the bell, add to watchlist and the AI analysis all work", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await openUipList(page, trader);
    await page.getByRole("link", { name: /^Speculative \d+$/ }).click();
    await expect(page).toHaveURL(/\?category=\d+$/);
    await expect.poll(() => shownTickers(page)).toEqual(["NVDA", "TSLA", "PLTR"]);
    await page.getByRole("link", { name: "Search" }).click();
    await page.getByRole("searchbox", { name: "Search by ticker" }).fill("t");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => shownTickers(page)).toEqual(["TSLA", "PLTR"]);
    await page.getByRole("link", { name: "Close search" }).click();
    await expect.poll(() => shownTickers(page)).toEqual(["NVDA", "TSLA", "PLTR"]);

    await row(page, "TSLA").getByRole("switch", { name: "Price alerts for TSLA" }).click();
    await expectStaticToast(page, "Price alerts on for TSLA.");
    await expect(row(page, "TSLA").getByRole("switch")).toHaveAttribute("aria-checked", "true");

    // The row's link opens its panel: the AI analysis, read whole by the server.
    await row(page, "TSLA").locator(".main").click();
    await expect(page).toHaveURL(/open=TSLA/);
    await row(page, "TSLA").getByRole("link", { name: "AI analysis" }).click();
    const modal = page.getByRole("dialog", { name: "AI analysis: TSLA" });
    await expect(modal.locator(".ai-text__body")).toContainText("TSLA");
    await modal.getByRole("link", { name: "Close" }).last().click();
    await expect(page).not.toHaveURL(/ai=/);

    await row(page, "TSLA").getByRole("link", { name: "Add to Watchlist" }).click();
    await page
      .getByRole("dialog", { name: "Add TSLA to your watchlist?" })
      .getByRole("button", { name: "Add to Watchlist" })
      .click();
    await expectStaticToast(page, "TSLA added to your watchlist!");
    expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["TSLA"]);
    await expect(page.getByRole("link", { name: "Scroll to top" })).toBeVisible();
  });

  test("the admin: menu, move buttons (each saved), delete, add with Look up and edit", async ({ page }) => {
    const dis = await fixture.add("DIS", "Buy");
    await fixture.add("NFLX", "Buy");
    const tickers = (await uipList()).map((r) => r.stock.ticker);
    await openUipList(page, ADMIN);

    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("link", { name: "Reorder" }).click();
    await expect(page).toHaveURL(/\?reorder=1$/);
    await row(page, "NFLX").getByRole("button", { name: "Move NFLX up" }).click();
    await expectStaticToast(page, "Stocks reordered!");
    expect((await uipList()).map((r) => r.stock.ticker).slice(-2)).toEqual(["NFLX", "DIS"]);
    await page.getByRole("button", { name: "Finish Reorder" }).click();
    await expect(page).toHaveURL(/\/uip-stocks$/);
    await expect.poll(() => shownTickers(page)).toEqual([...tickers.slice(0, -2), "NFLX", "DIS"]);

    await row(page, "DIS").locator(".main").click();
    await row(page, "DIS").getByRole("link", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete DIS?" }).getByRole("button", { name: "Delete" }).click();
    await expectStaticToast(page, "DIS deleted from UIP stocks.");
    expect((await uipList()).some((r) => r.id === dis.id)).toBe(false);

    await page.goto("/add-uip-stock");
    await page.getByLabel("Ticker Symbol").fill("a.md");
    await page.getByLabel("Base Value").fill("160");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByLabel("Stock Name")).toHaveValue("Advanced Micro Devices, Inc.");
    await expect(page.getByLabel("Base Value")).toHaveValue("160");
    await page.getByLabel("Category").selectOption({ label: "Speculative" });
    await page.getByLabel("Cons Value").press("Enter");
    await expect(page).toHaveURL(/\/uip-stocks$/);
    await expectStaticToast(page, "AMD added!", 1000);

    await page.goto("/uip-stock/AMD");
    await expect(page.getByLabel("Average Value")).toHaveValue("80.0");
    await page.getByLabel("1st buy level").fill("140");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectStaticToast(page, "AMD updated successfully!", 1000);
    expect((await uipList()).find((r) => r.stock.ticker === "AMD")?.buy_level_one).toBe(140);
  });
});

/** A finger down on a row's middle, scrolled into view first (the list is longer than the screen). */
/**
 * A finger held on the middle of a row, as a trader would put it: the row scrolled towards the
 * middle of the screen, and the finger only where nothing covers it. The last row of a list could
 * stay behind the fixed bottom navigation: "in view" by its top edge, or scrolled with the heights
 * the rows below the fold were only estimated at (`content-visibility`), and a press there reached
 * the navigation instead.
 */
async function fingerOn(page: Page, ticker: string): Promise<Finger> {
  const main = row(page, ticker).locator(".main");
  let at = { x: 0, y: 0 };
  await expect
    .poll(
      async () => {
        await main.evaluate((element) => element.scrollIntoView({ block: "center" }));
        at = await centerOf(main);
        return main.evaluate((element, { x, y }) => element.contains(document.elementFromPoint(x, y)), at);
      },
      { message: `nothing covers the middle of ${ticker}'s row` },
    )
    .toBe(true);
  return Finger.down(page, at);
}

/**
 * Without JavaScript the flash toast is server-rendered; CSS fades it after its auto-close time
 * (its animation delay), so its presence and that time are checked, not its fleeting visibility.
 */
async function expectStaticToast(page: Page, text: string, autoCloseMs = 2000) {
  const shown = page.locator(".static-toast").filter({ hasText: text });
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute("style", new RegExp(`animation-delay: ?${autoCloseMs}ms`));
}

/** The area, in CSS pixels, of what an SVG `<use>` draws: 0 when its reference finds nothing. */
async function drawnArea(use: Locator): Promise<number> {
  return use.evaluate((element: SVGUseElement) => {
    const box = element.getBBox();
    const scale = element.getScreenCTM()?.a ?? 0;
    return box.width * box.height * scale * scale;
  });
}

/** en-US grouping with fixed decimals, as the list shows numbers (docs/product.md#constants-display). */
function formatted(value: number, digits: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
