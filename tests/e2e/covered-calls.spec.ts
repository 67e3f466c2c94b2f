import { expect, test } from "./support/test.ts";
import * as calls from "#contract/calls.ts";
import type { CallFilters } from "#contract/covered-calls.ts";
import { holdScripts, waitForHydration } from "./support/hydration.ts";
import { createTrader, providerCall, signInAs, type Trader } from "./support/watchlist.ts";

/**
 * The covered-call screen (/insights/calls, ADR 0079): a trader holding shares sees the calls they
 * can sell against them, filters them with or without the page's scripts, and records one.
 * Real build, real embedded provider, the simulated market.
 */
test.describe.configure({ timeout: 120_000 });

/** A trader holding 200 KO bought an hour ago at $60 (fees $1): adjusted basis (12,000 + 1) ÷ 200 = $60.005. */
async function koHolder(): Promise<Trader> {
  const trader = await createTrader(["KO"]);
  const bought = await providerCall(trader.providerUrl, calls.addTrade, {
    token: trader.token,
    body: {
      kind: "stock_buy",
      ticker: "KO",
      quantity: 200,
      price: 60,
      fees: 1,
      traded_at: new Date(Date.now() - 3_600_000).toISOString(),
    },
  });
  expect(bought.status, JSON.stringify(bought.body)).toBe(200);
  return trader;
}

/** Wide filters, so the simulated KO chain surely has calls to show. */
const WIDE = "delta_min=0.05&delta_max=0.5&dte_min=1&dte_max=90&min_open_interest=0&skip_earnings=0";

test("lists calls at or above the basis with their figures, and records one from its card", async ({ page }) => {
  const trader = await koHolder();
  await signInAs(page, trader);
  await page.goto("/insights");
  await page.getByRole("navigation", { name: "What to sell" }).getByRole("link", { name: "Covered calls" }).click();
  await expect(page).toHaveURL(/\/insights\/calls$/);
  await expect(page.getByRole("link", { name: "Covered calls" })).toHaveAttribute("aria-current", "page");
  await page.goto(`/insights/calls?${WIDE}`);

  const holding = page.getByTestId("holding").filter({ hasText: "200 shares of KO" });
  await expect(holding.getByTestId("adjusted-basis")).toHaveText("$60.01");
  await expect(holding.getByTestId("contracts-available")).toHaveText("2 contracts");
  const cards = holding.getByTestId("call-card");
  await expect(cards.first()).toBeVisible();
  for (const strike of await cards.getByTestId("strike").allTextContents()) {
    expect(Number(strike.replace("$", ""))).toBeGreaterThanOrEqual(60.005);
  }
  const first = cards.first();
  for (const label of [
    "Premium (bid)",
    "Mid",
    /^If unchanged \(on \$[\d,.]+ price\), monthly, net$/,
    "If called away (on $60.01 basis), monthly, net",
    "Chance of being called (risk-neutral)",
    "Delta (shortcut)",
    "Breakeven",
  ]) {
    await expect(first.getByText(label, { exact: true })).toBeVisible();
  }
  const strike = (await first.getByTestId("strike").textContent())!.replace("$", "");

  await first.getByRole("link", { name: /^Record this trade/ }).click();
  await expect(page).toHaveURL(/\/add-trade\?.*type=call/);
  await expect(page.getByLabel("Strike", { exact: true })).toHaveValue(String(Number(strike)));
  await expect(page.getByRole("group", { name: "Put or call" }).getByRole("radio", { name: "Call" })).toBeChecked();
  await page.getByLabel("Fees (commission and fees, $)", { exact: true }).fill("0.65");
  await page.getByRole("button", { name: "Save trade" }).click();
  await expect(page).toHaveURL(/\/portfolio/);

  await page.goto(`/insights/calls?${WIDE}`);
  await expect(holding.getByTestId("contracts-available")).toHaveText("1 contract (1 already sold)");
});

test("the call filters work before the page's scripts run, and nothing typed then is lost", async ({ browser }) => {
  const trader = await koHolder();
  // No service worker: it would answer the scripts from its cache, past holdScripts.
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  await signInAs(page, trader);

  // Without scripts: the GET form puts the filters in the address.
  const release = await holdScripts(page);
  await page.goto("/insights/calls", { waitUntil: "domcontentloaded" });
  await page.getByText("Your call filters").click();
  await page.getByLabel("Only strikes at or above my adjusted cost basis").uncheck();
  await page.getByLabel("Days to expiry to").fill("60");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/at_or_above_basis=0/);
  await expect(page).toHaveURL(/dte_max=60/);

  // Typed while the scripts are still held, kept once they run.
  await page.getByText("Your call filters").click();
  await expect(page.getByLabel("Only strikes at or above my adjusted cost basis")).not.toBeChecked();
  await page.getByLabel("Days to expiry from").fill("9");
  release();
  await waitForHydration(page);
  await expect(page.getByLabel("Days to expiry from")).toHaveValue("9");
  await expect(page.getByLabel("Days to expiry to")).toHaveValue("60");

  // Saved as the defaults, with the scripts running.
  await page.getByRole("button", { name: "Save as my defaults" }).click();
  await expect(page).toHaveURL(/dte_min=9/);
  await expect
    .poll(async () => {
      const saved = await providerCall<CallFilters>(trader.providerUrl, calls.callFilters, { token: trader.token });
      return [saved.body.at_or_above_basis, saved.body.dte_min, saved.body.dte_max];
    })
    .toEqual([false, 9, 60]);
  await context.close();
});

test("a value the filters refuse keeps the calls on the saved filters and says why", async ({ page }) => {
  const trader = await koHolder();
  await signInAs(page, trader);
  await page.goto("/insights/calls?dte_min=50&dte_max=10");
  await expect(page.getByRole("alert")).toHaveText("'Days to expiry from' must not be above 'Days to expiry to'.");
  await expect(page.getByTestId("holding").filter({ hasText: "200 shares of KO" })).toBeVisible();
});
