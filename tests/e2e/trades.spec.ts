import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { signIn } from "./support/sign-in.ts";

/**
 * SPEC.md §1/§2 Trades journal and Add trade, §3 trade draft, §4 statuses, §5 trade form rules,
 * §9 bounds: in the real build, with JavaScript on and off.
 */

/** Rows per instrument in each period: the sample rows are spread so each longer period adds one. */
const ROWS_PER_INSTRUMENT = { "7d": 2, "30d": 3, "2m": 4, "3m": 5, "6m": 6, all: 7 } as const;
const PERIOD_LABELS = {
  all: "All Time",
  "6m": "Last 6 Months",
  "3m": "Last 3 Months",
  "2m": "Last 2 Months",
  "30d": "Last 30 Days",
  "7d": "Last 7 Days",
} as const;

const rows = (page: Page) => page.getByRole("list", { name: "Trades" }).getByRole("listitem");
const filter = (page: Page, group: "Instrument" | "Period", name: string) =>
  page.getByRole("group", { name: group }).getByRole("link", { name, exact: true });
const dialog = (page: Page) => page.getByRole("dialog", { name: "Add Trade" });

async function expectCurrent(page: Page, group: "Instrument" | "Period", name: string) {
  await expect(filter(page, group, name)).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("group", { name: group }).locator('[aria-current="true"]')).toHaveCount(1);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Trades journal, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    test.beforeEach(async ({ page }) => signIn(page));

    test("shows 'Trades' marked work-in-progress, with the last 7 days of both instruments by default", async ({
      page,
    }) => {
      await page.goto("/portfolio");
      await expect(page.getByRole("heading", { level: 1, name: "Trades" })).toBeVisible();
      await expect(page.getByText("Work-in-progress", { exact: true })).toBeVisible();
      await expect(page.getByText("Sample trades for illustration. Nothing here is saved yet.")).toBeVisible();
      await expectCurrent(page, "Instrument", "Stocks and Options");
      await expectCurrent(page, "Period", "Last 7 Days");
      await expect(page.getByRole("group", { name: "Period" }).getByRole("link")).toHaveText(
        Object.values(PERIOD_LABELS),
      );
      await expect(page.getByRole("group", { name: "Instrument" }).getByRole("link")).toHaveText([
        "Stocks and Options",
        "Stocks",
        "Options",
      ]);
      await expect(rows(page)).toHaveCount(4);
      await expect(rows(page).filter({ hasText: "Stock" })).toHaveCount(2);
      await expect(rows(page).filter({ hasText: "Option" })).toHaveCount(2);
      await expect(page.getByText("4 trades · Last 7 Days")).toBeVisible();
      // The bottom navigation is there, with Trades as the current screen.
      await expect(
        page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trades" }),
      ).toHaveAttribute("aria-current", "page");
    });

    test("the filters narrow the list and live in the URL", async ({ page }) => {
      await page.goto("/portfolio");
      await filter(page, "Instrument", "Options").click();
      await expect(page).toHaveURL(/\/portfolio\?instrument=options&period=7d$/);
      await expectCurrent(page, "Instrument", "Options");
      await expect(rows(page)).toHaveCount(2);
      await expect(rows(page).filter({ hasText: "Option" })).toHaveCount(2);

      await filter(page, "Period", "Last 30 Days").click();
      await expect(page).toHaveURL(/\?instrument=options&period=30d$/);
      await expectCurrent(page, "Period", "Last 30 Days");
      await expectCurrent(page, "Instrument", "Options");
      await expect(rows(page)).toHaveCount(3);

      await filter(page, "Instrument", "Stocks").click();
      await expect(page).toHaveURL(/\?instrument=stocks&period=30d$/);
      await expect(rows(page)).toHaveCount(3);
      await expect(rows(page).filter({ hasText: "Option" })).toHaveCount(0);

      await filter(page, "Period", "All Time").click();
      await expect(page).toHaveURL(/\?instrument=stocks&period=all$/);
      await expect(rows(page)).toHaveCount(7);

      // The URL alone restores the view: reload, and open it fresh.
      await page.reload();
      await expectCurrent(page, "Instrument", "Stocks");
      await expectCurrent(page, "Period", "All Time");
      await expect(rows(page)).toHaveCount(7);
      await page.goto("/portfolio?instrument=all&period=2m");
      await expectCurrent(page, "Instrument", "Stocks and Options");
      await expectCurrent(page, "Period", "Last 2 Months");
      await expect(rows(page)).toHaveCount(8);
    });

    test("the add button leads to /add-trade, which leads back to /portfolio", async ({ page }) => {
      await page.goto("/portfolio");
      await page.getByRole("link", { name: "Add trade" }).click();
      await expect(page).toHaveURL(/\/add-trade$/);
      await expect(page.getByRole("heading", { level: 1, name: "Add Trade" })).toBeVisible();
      // A page of its own: no bottom navigation.
      await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
      await page.getByRole("link", { name: "Back to trades" }).click();
      await expect(page).toHaveURL(/\/portfolio$/);
    });
  });
}

test.describe("Trades journal filters", () => {
  test.use({ javaScriptEnabled: false });
  test.beforeEach(async ({ page }) => signIn(page));

  test("every instrument and period shows rows, the longer periods more, newest first", async ({ page }) => {
    for (const [instrument, label, factor] of [
      ["all", "Stocks and Options", 2],
      ["stocks", "Stocks", 1],
      ["options", "Options", 1],
    ] as const) {
      for (const [period, count] of Object.entries(ROWS_PER_INSTRUMENT)) {
        await page.goto(`/portfolio?instrument=${instrument}&period=${period}`);
        await expectCurrent(page, "Instrument", label);
        await expectCurrent(page, "Period", PERIOD_LABELS[period as keyof typeof PERIOD_LABELS]);
        await expect(rows(page), `${instrument} ${period}`).toHaveCount(count * factor);
        const dates = await rows(page)
          .locator("time")
          .evaluateAll((times) => times.map((t) => Date.parse(t.getAttribute("datetime")!)));
        expect(dates).toEqual([...dates].sort((a, b) => b - a));
        if (instrument !== "all") {
          const tag = instrument === "stocks" ? "Stock" : "Option";
          await expect(rows(page).locator(".journal-row__tag")).toHaveText(Array(count).fill(tag));
        }
      }
    }
  });

  test("unknown filter values fall back to the defaults", async ({ page }) => {
    await page.goto("/portfolio?instrument=futures&period=forever");
    await expectCurrent(page, "Instrument", "Stocks and Options");
    await expectCurrent(page, "Period", "Last 7 Days");
    await expect(rows(page)).toHaveCount(4);
  });
});

/* ---------------------------------------------------------------- Add trade */

/** With JavaScript one tab shows at a time; without it every panel is shown, one after another. */
async function showTab(page: Page, name: "General" | "Exit" | "Journal", javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return;
  await dialog(page)
    .getByRole("tab", { name: new RegExp(`^${name}`) })
    .click();
  await expect(dialog(page).getByRole("tab", { name: new RegExp(`^${name}`) })).toHaveAttribute(
    "aria-selected",
    "true",
  );
}

async function openStocksForm(page: Page) {
  await page.goto("/add-trade");
  await page.getByRole("button", { name: "Stocks" }).click();
  await expect(page).toHaveURL(/\/add-trade\?form=stocks$/);
  await expect(dialog(page)).toBeVisible();
}

const field = (page: Page, label: string) => dialog(page).getByLabel(label, { exact: true });
const errorOf = (control: Locator) =>
  control.evaluate((el) => {
    const ids = el.getAttribute("aria-describedby")?.split(" ") ?? [];
    return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
  });

/** Fills every required field with valid values, tab by tab. */
async function fillRequired(page: Page, javaScriptEnabled: boolean) {
  await showTab(page, "General", javaScriptEnabled);
  await field(page, "Entry price").fill("189.20");
  await field(page, "Quantity").fill("10");
  await field(page, "Entry fee").fill("1.50");
  await showTab(page, "Exit", javaScriptEnabled);
  await field(page, "Closing price").fill("196.40");
  await field(page, "Exit fee").fill("1.50");
}

async function submit(page: Page) {
  await dialog(page).getByRole("button", { name: "Save trade" }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Add trade, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    test.beforeEach(async ({ page }) => signIn(page));

    test("'Stocks' opens the Add Trade modal; 'Options' does nothing and says why", async ({ page }) => {
      await page.goto("/add-trade");
      const options = page.getByRole("button", { name: "Options" });
      await expect(options).toHaveAttribute("aria-disabled", "true");
      await expect(options).toHaveAccessibleDescription("Options trades are not available yet.");
      // A user can still press it (aria-disabled keeps it focusable and announced); nothing happens.
      await options.click({ force: true });
      await expect(page).toHaveURL(/\/add-trade$/);
      await expect(page.getByRole("dialog")).toHaveCount(0);

      await page.getByRole("button", { name: "Stocks" }).click();
      await expect(page).toHaveURL(/\/add-trade\?form=stocks$/);
      await expect(dialog(page)).toBeVisible();
      await expect(dialog(page).getByRole("heading", { name: "Add Trade" })).toBeVisible();
      await dialog(page).getByRole("link", { name: "Close" }).click();
      await expect(page).toHaveURL(/\/add-trade$/);
      await expect(page.getByRole("dialog")).toHaveCount(0);
    });

    test("the modal opens from its URL, with every field of the draft and SPEC's defaults", async ({ page }) => {
      await page.goto("/add-trade?form=stocks");
      await expect(dialog(page)).toBeVisible();

      await showTab(page, "General", javaScriptEnabled);
      await expect(field(page, "Portfolio")).toHaveValue("Default Portfolio");
      const type = dialog(page).getByRole("group", { name: "Type" });
      await expect(type.getByRole("radio", { name: "Buy" })).toBeChecked();
      await expect(type.getByRole("radio", { name: "Sell" })).not.toBeChecked();
      await expect(field(page, "Symbol")).toHaveValue("");
      for (const label of ["Entry price", "Quantity", "Entry fee"]) await expect(field(page, label)).toHaveValue("");
      await expect(field(page, "Entry status")).toHaveValue("filled");
      await expect(field(page, "Entry status").locator("option")).toHaveText(["Filled", "Pending"]);
      await expect(field(page, "Entry date and time")).toHaveAttribute("type", "datetime-local");

      await showTab(page, "Exit", javaScriptEnabled);
      await expect(field(page, "Closing price")).toHaveValue("");
      await expect(field(page, "Exit fee")).toHaveValue("");
      await expect(field(page, "Exit status")).toHaveValue("closed");
      await expect(field(page, "Exit status").locator("option")).toHaveText(["TP Hit", "SL Hit", "Closed"]);
      await expect(field(page, "Exit date and time")).toHaveAttribute("type", "datetime-local");

      await showTab(page, "Journal", javaScriptEnabled);
      await expect(field(page, "Strategy")).toHaveValue("");
      await expect(field(page, "Notes")).toHaveValue("");
      const confidence = dialog(page).getByRole("group", { name: "Confidence" }).getByRole("radio");
      await expect(confidence).toHaveCount(5);
      const labels = ["Very Low", "Low", "Neutral", "High", "Very High"];
      for (const [level, label] of labels.entries()) {
        const radio = dialog(page).getByRole("radio", { name: label, exact: true });
        await expect(radio).toHaveAttribute("value", String(level));
        if (level === 2) await expect(radio).toBeChecked();
        else await expect(radio).not.toBeChecked();
      }
    });

    test("prices, fees and quantity are required; the errors say which and where", async ({ page }) => {
      await openStocksForm(page);
      await submit(page);
      await expect(page).toHaveURL(/\/add-trade\?form=stocks$/);
      await expect(dialog(page).getByRole("alert").first()).toContainText(
        "Fix 5 fields before saving: General (3), Exit (2).",
      );
      for (const [label, message] of [
        ["Entry price", "Entry price is required"],
        ["Quantity", "Quantity is required"],
        ["Entry fee", "Entry fee is required"],
        ["Closing price", "Closing price is required"],
        ["Exit fee", "Exit fee is required"],
      ]) {
        await expect(field(page, label!)).toHaveAttribute("aria-invalid", "true");
        expect(await errorOf(field(page, label!))).toBe(message);
      }
      for (const label of ["Portfolio", "Symbol", "Strategy"]) {
        await expect(field(page, label)).not.toHaveAttribute("aria-invalid", "true");
      }
      // Nothing else is required: with these five filled, the draft passes.
      await fillRequired(page, javaScriptEnabled);
      await submit(page);
      await expect(dialog(page).getByRole("status")).toHaveText(
        "Saving trades is not available yet. Your draft is kept.",
      );
      await expect(dialog(page).locator('[aria-invalid="true"]')).toHaveCount(0);
    });

    test("price, fee and quantity bounds: 0 to 9,999,999 and 0 to 100,000, edges allowed", async ({ page }) => {
      await openStocksForm(page);
      await showTab(page, "General", javaScriptEnabled);
      await field(page, "Entry price").fill("9999999.01");
      await field(page, "Quantity").fill("100001");
      await field(page, "Entry fee").fill("10000000");
      await showTab(page, "Exit", javaScriptEnabled);
      await field(page, "Closing price").fill("99999999");
      await field(page, "Exit fee").fill("0");
      await submit(page);
      await showTab(page, "General", javaScriptEnabled);
      expect(await errorOf(field(page, "Entry price"))).toBe("Entry price must be at most 9,999,999");
      expect(await errorOf(field(page, "Quantity"))).toBe("Quantity must be at most 100,000");
      expect(await errorOf(field(page, "Entry fee"))).toBe("Entry fee must be at most 9,999,999");
      await showTab(page, "Exit", javaScriptEnabled);
      expect(await errorOf(field(page, "Closing price"))).toBe("Closing price must be at most 9,999,999");
      await expect(field(page, "Exit fee")).not.toHaveAttribute("aria-invalid", "true");

      // The edges themselves are fine.
      await showTab(page, "General", javaScriptEnabled);
      await field(page, "Entry price").fill("9999999");
      await field(page, "Quantity").fill("100000");
      await field(page, "Entry fee").fill("0");
      await showTab(page, "Exit", javaScriptEnabled);
      await field(page, "Closing price").fill("0");
      await submit(page);
      await expect(dialog(page).getByRole("status")).toHaveText(
        "Saving trades is not available yet. Your draft is kept.",
      );
      await expect(dialog(page).locator('[aria-invalid="true"]')).toHaveCount(0);
    });

    test("a symbol keeps only letters and digits, in upper case", async ({ page }) => {
      await openStocksForm(page);
      await field(page, "Symbol").fill("brk.b-1 $");
      if (javaScriptEnabled) {
        // Cleaned as it is typed.
        await expect(field(page, "Symbol")).toHaveValue("BRKB1");
      }
      await fillRequired(page, javaScriptEnabled);
      await submit(page);
      await expect(dialog(page).getByRole("status")).toHaveText(
        "Saving trades is not available yet. Your draft is kept.",
      );
      await showTab(page, "General", javaScriptEnabled);
      await expect(field(page, "Symbol")).toHaveValue("BRKB1");
    });

    test("a valid draft is kept in the form and saved nowhere", async ({ page }) => {
      await openStocksForm(page);
      await showTab(page, "General", javaScriptEnabled);
      await field(page, "Portfolio").fill("Income account");
      await dialog(page).getByRole("radio", { name: "Sell" }).check();
      await field(page, "Symbol").fill("zzqx");
      await field(page, "Entry price").fill("12.5");
      await field(page, "Quantity").fill("300");
      await field(page, "Entry fee").fill("0.65");
      await field(page, "Entry status").selectOption("Pending");
      await field(page, "Entry date and time").fill("2026-11-20T09:30");
      await showTab(page, "Exit", javaScriptEnabled);
      await field(page, "Closing price").fill("11.25");
      await field(page, "Exit fee").fill("0.65");
      await field(page, "Exit status").selectOption("TP Hit");
      await field(page, "Exit date and time").fill("2026-11-21T15:45");
      await showTab(page, "Journal", javaScriptEnabled);
      await field(page, "Strategy").fill("Breakout");
      await field(page, "Notes").fill("Sold into strength.\nCovered at support.");
      await dialog(page).getByRole("radio", { name: "Very High" }).check();
      await submit(page);

      await expect(page).toHaveURL(/\/add-trade\?form=stocks$/);
      await expect(dialog(page).getByRole("status")).toHaveText(
        "Saving trades is not available yet. Your draft is kept.",
      );
      await expectFullDraft(page, javaScriptEnabled);

      // Nothing was saved: the journal still lists only its sample rows.
      await page.goto("/portfolio?instrument=all&period=all");
      await expect(rows(page)).toHaveCount(14);
      await expect(page.getByText("ZZQX")).toHaveCount(0);
    });

    test("a refused draft keeps every typed value", async ({ page }) => {
      await openStocksForm(page);
      await showTab(page, "General", javaScriptEnabled);
      await field(page, "Portfolio").fill("Income account");
      await dialog(page).getByRole("radio", { name: "Sell" }).check();
      await field(page, "Symbol").fill("zzqx");
      await field(page, "Entry price").fill("12.5");
      await field(page, "Quantity").fill("300");
      await field(page, "Entry fee").fill("0.65");
      await field(page, "Entry status").selectOption("Pending");
      await field(page, "Entry date and time").fill("2026-11-20T09:30");
      await showTab(page, "Exit", javaScriptEnabled);
      await field(page, "Closing price").fill("11.25");
      await field(page, "Exit fee").fill("10000000"); // over the bound: the one error
      await field(page, "Exit status").selectOption("TP Hit");
      await field(page, "Exit date and time").fill("2026-11-21T15:45");
      await showTab(page, "Journal", javaScriptEnabled);
      await field(page, "Strategy").fill("Breakout");
      await field(page, "Notes").fill("Sold into strength.\nCovered at support.");
      await dialog(page).getByRole("radio", { name: "Very High" }).check();
      await submit(page);

      await expect(dialog(page).getByRole("alert").first()).toContainText("Fix 1 field before saving: Exit (1).");
      await expect(dialog(page).getByText("Saving trades is not available yet.")).toHaveCount(0);
      if (javaScriptEnabled) {
        // The Exit tab is shown and marked, and the wrong field has focus.
        await expect(dialog(page).getByRole("tab", { name: "Exit, 1 error" })).toHaveAttribute("aria-selected", "true");
        await expect(field(page, "Exit fee")).toBeFocused();
      }
      expect(await errorOf(field(page, "Exit fee"))).toBe("Exit fee must be at most 9,999,999");
      await expect(field(page, "Exit fee")).toHaveValue("10000000");
      await field(page, "Exit fee").fill("0.65");
      await expectFullDraft(page, javaScriptEnabled);
    });
  });
}

/** The draft typed by the two tests above, as the form shows it. */
async function expectFullDraft(page: Page, javaScriptEnabled: boolean) {
  await showTab(page, "General", javaScriptEnabled);
  await expect(field(page, "Portfolio")).toHaveValue("Income account");
  await expect(dialog(page).getByRole("radio", { name: "Sell" })).toBeChecked();
  await expect(field(page, "Symbol")).toHaveValue("ZZQX");
  await expect(field(page, "Entry price")).toHaveValue("12.5");
  await expect(field(page, "Quantity")).toHaveValue("300");
  await expect(field(page, "Entry fee")).toHaveValue("0.65");
  await expect(field(page, "Entry status")).toHaveValue("pending");
  await expect(field(page, "Entry date and time")).toHaveValue("2026-11-20T09:30");
  await showTab(page, "Exit", javaScriptEnabled);
  await expect(field(page, "Closing price")).toHaveValue("11.25");
  await expect(field(page, "Exit fee")).toHaveValue("0.65");
  await expect(field(page, "Exit status")).toHaveValue("tp_hit");
  await expect(field(page, "Exit date and time")).toHaveValue("2026-11-21T15:45");
  await showTab(page, "Journal", javaScriptEnabled);
  await expect(field(page, "Strategy")).toHaveValue("Breakout");
  await expect(field(page, "Notes")).toHaveValue("Sold into strength.\nCovered at support.");
  await expect(dialog(page).getByRole("radio", { name: "Very High" })).toBeChecked();
}

test.describe("Add trade, JavaScript on", () => {
  test.beforeEach(async ({ page }) => signIn(page));

  test("a negative amount cannot be typed: only digits and one decimal point are kept", async ({ page }) => {
    await openStocksForm(page);
    await field(page, "Entry price").fill("-12.5.0");
    await expect(field(page, "Entry price")).toHaveValue("12.50");
    await field(page, "Quantity").pressSequentially("-3e2");
    await expect(field(page, "Quantity")).toHaveValue("32");
  });

  test("tabs: one panel at a time, arrow keys move between them, errors mark their tab", async ({ page }) => {
    await openStocksForm(page);
    const tabs = dialog(page).getByRole("tab");
    await expect(tabs).toHaveText(["General", "Exit", "Journal"]);
    await expect(field(page, "Entry price")).toBeVisible();
    await expect(field(page, "Closing price")).toBeHidden();
    await expect(field(page, "Strategy")).toBeHidden();

    await tabs.first().focus();
    await page.keyboard.press("ArrowRight");
    await expect(tabs.nth(1)).toBeFocused();
    await expect(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(field(page, "Closing price")).toBeVisible();
    await expect(field(page, "Entry price")).toBeHidden();
    await page.keyboard.press("End");
    await expect(tabs.nth(2)).toHaveAttribute("aria-selected", "true");
    await expect(field(page, "Strategy")).toBeVisible();
    await page.keyboard.press("ArrowRight");
    await expect(tabs.nth(0)).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowLeft");
    await expect(tabs.nth(2)).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Home");
    await expect(tabs.nth(0)).toHaveAttribute("aria-selected", "true");

    // Submitting from the Journal tab with everything empty: General is shown, its first wrong field focused.
    await tabs.nth(2).click();
    await submit(page);
    await expect(dialog(page).getByRole("tab", { name: "General, 3 errors" })).toHaveAttribute("aria-selected", "true");
    await expect(dialog(page).getByRole("tab", { name: "Exit, 2 errors" })).toBeVisible();
    await expect(dialog(page).getByRole("tab", { name: "Journal", exact: true })).toBeVisible();
    await expect(field(page, "Entry price")).toBeFocused();

    // With General fixed, the next submit goes to Exit; the marks follow the errors as they are fixed.
    await field(page, "Entry price").fill("10");
    await field(page, "Quantity").fill("1");
    await field(page, "Entry fee").fill("0");
    await expect(dialog(page).getByRole("tab", { name: "General", exact: true })).toBeVisible();
    await submit(page);
    await expect(dialog(page).getByRole("tab", { name: "Exit, 2 errors" })).toHaveAttribute("aria-selected", "true");
    await expect(field(page, "Closing price")).toBeFocused();
    await field(page, "Closing price").fill("12");
    await expect(dialog(page).getByRole("tab", { name: "Exit, 1 error" })).toBeVisible();
  });

  test("the modal keeps focus inside, closes on Escape and gives focus back to 'Stocks'", async ({ page }) => {
    await page.goto("/portfolio");
    await page.getByRole("link", { name: "Add trade" }).click();
    await page.getByRole("button", { name: "Stocks" }).click();
    await expect(dialog(page)).toBeVisible();
    const close = dialog(page).getByRole("link", { name: "Close" });
    const save = dialog(page).getByRole("button", { name: "Save trade" });
    await expect(close).toBeFocused();

    // Tab from the last control wraps to the first, Shift+Tab from the first to the last.
    await save.focus();
    await page.keyboard.press("Tab");
    await expect(close).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(save).toBeFocused();
    // Walking all the way round never leaves the dialog.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog(page).evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    // The page behind is inert while the modal is open.
    await expect(dialog(page)).toHaveJSProperty("open", true);
    expect(await page.evaluate(() => document.querySelector("dialog")!.matches(":modal"))).toBe(true);

    await page.keyboard.press("Escape");
    await expect(page).toHaveURL(/\/add-trade$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Stocks" })).toBeFocused();
    // Closing went back in history: one more Back returns to the journal.
    await page.goBack();
    await expect(page).toHaveURL(/\/portfolio$/);
  });

  test("opened from its URL, Escape and the close button lead to /add-trade", async ({ page }) => {
    await page.goto("/add-trade?form=stocks");
    await expect(dialog(page)).toBeVisible();
    // Escape is the modal's once the page is hydrated, which moves focus into the dialog.
    await expect.poll(() => dialog(page).evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(page).toHaveURL(/\/add-trade$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.goto("/add-trade?form=stocks");
    await dialog(page).getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/add-trade$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });
});

test.describe("Add trade, JavaScript off", () => {
  test.use({ javaScriptEnabled: false });
  test.beforeEach(async ({ page }) => signIn(page));

  test("all three sections are shown at once, so one post carries the whole draft", async ({ page }) => {
    await openStocksForm(page);
    await expect(dialog(page).getByRole("tab")).toHaveCount(0);
    for (const name of ["General", "Exit", "Journal"]) {
      await expect(dialog(page).getByRole("heading", { name, exact: true })).toBeVisible();
    }
    for (const label of ["Entry price", "Closing price", "Strategy"]) await expect(field(page, label)).toBeVisible();
  });

  test("a negative amount is refused by the server", async ({ page }) => {
    await openStocksForm(page);
    await fillRequired(page, false);
    await field(page, "Entry price").fill("-1");
    await field(page, "Exit fee").fill("-0.01");
    await submit(page);
    expect(await errorOf(field(page, "Entry price"))).toBe("Entry price must be at least 0");
    expect(await errorOf(field(page, "Exit fee"))).toBe("Exit fee must be at least 0");
    await expect(field(page, "Entry price")).toHaveValue("-1");
  });
});
