import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { createTrader, expectToast, recordToasts, signInAs } from "./support/watchlist.ts";

/**
 * The brokers of ADR 0096 on the import screen: chosen in the Broker list, a file previewed and
 * imported, with and without JavaScript (docs/decisions/0096-us-broker-csv-imports.md).
 */
test.describe.configure({ timeout: 90_000 });

const rows = (page: Page) => page.getByRole("list", { name: "Trades" }).getByRole("listitem");
const card = (page: Page, name: string | RegExp) => page.getByRole("listitem", { name });
const figure = (scope: ReturnType<Page["locator"]>, term: string) =>
  scope
    .locator(".journal-figure")
    .filter({ has: scope.page().getByText(term, { exact: true }) })
    .locator("dd");
const fixture = (name: string) => new URL(`../../provider/journal/brokers/fixtures/${name}`, import.meta.url).pathname;

// The hand-worked figures are in provider/routes/trade-imports-us-brokers.test.ts.
const BROKERS = [
  { value: "robinhood", label: "Robinhood", file: "robinhood-activity.csv", skipped: 4, pnl: "+$861.74" },
  { value: "fidelity", label: "Fidelity", file: "fidelity-history.csv", skipped: 5, pnl: "+$856.31" },
  {
    value: "tdameritrade",
    label: "TD Ameritrade",
    file: "td-ameritrade-transactions.csv",
    skipped: 4,
    pnl: "+$856.39",
  },
  { value: "etrade", label: "E*TRADE", file: "etrade-transactions.csv", skipped: 4, pnl: "+$856.35" },
];

for (const [i, broker] of BROKERS.entries()) {
  // JavaScript on for two of them, off for the others: the form is the same either way.
  const javaScriptEnabled = i % 2 === 0;
  test(`${broker.label}'s KO wheel is previewed and imported as one cycle (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    if (javaScriptEnabled) await recordToasts(page);
    const trader = await createTrader([]);
    await signInAs(page, trader);
    await page.goto("/import-trades");
    await page.getByLabel("Broker").selectOption(broker.value);
    await page.getByLabel("CSV, OFX or QFX file (under 1 MB)").setInputFiles(fixture(broker.file));
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("status")).toHaveText(
      `7 to add · 0 already imported · 0 refused · ${broker.skipped} lines not trades`,
    );
    await page.getByRole("button", { name: "Import 7 trades" }).click();
    await expect(page).toHaveURL(/\/portfolio\?period=all$/);
    const saved = "Imported 7 trades; 0 already in the journal, 0 refused";
    if (javaScriptEnabled) await expectToast(page, saved);
    else await expect(page.getByText(saved, { exact: true })).toBeVisible();
    await expect(rows(page)).toHaveCount(7);
    await expect(rows(page).first()).toContainText(`imported from ${broker.label}`);
    await expect(figure(card(page, /^KO cycle from/), "Realised P/L (net of fees)")).toHaveText(broker.pnl);
    await context.close();
  });
}
