import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import * as calls from "#contract/calls.ts";
import { weeklyExpiryIn } from "#provider/testing/expiries.ts";
import { optionsOf } from "./support/insights.ts";
import { holdScripts } from "./support/hydration.ts";
import { createTrader, expectToast, providerCall, recordToasts, signInAs, type Trader } from "./support/watchlist.ts";

/**
 * The wheel journal (README "The wheel journal") in the real build: the Trades screen with its
 * filters, Add Trade for shares and options (with and without JavaScript, offline, pre-filled from
 * a recommendation), one whole wheel walked through the forms, broker imports and the CSV export.
 * Each test has traders of its own.
 */
test.describe.configure({ timeout: 90_000 });

const rows = (page: Page) => page.getByRole("list", { name: "Trades" }).getByRole("listitem");
const filter = (page: Page, group: "Instrument" | "Period", name: string) =>
  page.getByRole("group", { name: group }).getByRole("link", { name, exact: true });
const dialog = (page: Page) => page.getByRole("dialog");
const field = (page: Page, label: string) => dialog(page).getByLabel(label, { exact: true });
const card = (page: Page, name: string | RegExp) => page.getByRole("listitem", { name });
/** The value next to a figure's term inside `scope`. */
const figure = (scope: ReturnType<Page["locator"]>, term: string) =>
  scope
    .locator(".journal-figure")
    .filter({ has: scope.page().getByText(term, { exact: true }) })
    .locator("dd");

/** The flash toast: recorded as it appears with JavaScript, the page's own text without. */
async function expectSaved(page: Page, text: string, javaScriptEnabled = true) {
  if (javaScriptEnabled) await expectToast(page, text);
  else await expect(page.getByText(text, { exact: true })).toBeVisible();
}

async function expectCurrent(page: Page, group: "Instrument" | "Period", name: string) {
  await expect(filter(page, group, name)).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("group", { name: group }).locator('[aria-current="true"]')).toHaveCount(1);
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
async function addByApi(trader: Trader, body: Record<string, unknown>) {
  const res = await providerCall(trader.providerUrl, calls.addTrade, { token: trader.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function journalOf(trader: Trader) {
  const res = await providerCall<{ id: number }[]>(trader.providerUrl, calls.listTrades, { token: trader.token });
  return res.body;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Trades screen, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    test.beforeEach(async ({ page }) => {
      if (javaScriptEnabled) await recordToasts(page);
    });

    test("a new trader's journal is empty and real: no sample rows, no work-in-progress ribbon", async ({ page }) => {
      const trader = await createTrader([]);
      await signInAs(page, trader);
      await page.goto("/portfolio");
      await expect(page.getByRole("heading", { level: 1, name: "Trades" })).toBeVisible();
      await expect(page.getByText("Work-in-progress")).toHaveCount(0);
      await expectCurrent(page, "Instrument", "Stocks and Options");
      await expectCurrent(page, "Period", "Last 7 Days");
      await expect(page.getByText("No trades in this period.")).toBeVisible();
      await expect(
        page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trades" }),
      ).toHaveAttribute("aria-current", "page");
      await page.getByRole("link", { name: "Add trade" }).click();
      await expect(page).toHaveURL(/\/add-trade$/);
      await page.getByRole("link", { name: "Back to trades" }).click();
      await expect(page).toHaveURL(/\/portfolio$/);
    });

    test("the filters narrow the trader's rows and live in the URL", async ({ page }) => {
      const trader = await createTrader([]);
      await addByApi(trader, {
        kind: "stock_buy",
        ticker: "MSFT",
        quantity: 5,
        price: 400,
        fees: 1,
        traded_at: daysAgo(100),
      });
      await addByApi(trader, {
        kind: "sell_to_open",
        ticker: "KO",
        option_type: "put",
        strike: 50,
        expiry: weeklyExpiryIn(30),
        quantity: 1,
        price: 1,
        fees: 1,
        traded_at: daysAgo(20),
      });
      await addByApi(trader, {
        kind: "stock_sell",
        ticker: "MSFT",
        quantity: 5,
        price: 410,
        fees: 1,
        traded_at: daysAgo(2),
      });
      await signInAs(page, trader);
      await page.goto("/portfolio");
      await expect(rows(page)).toHaveCount(1);
      // Bought at 400 + 1 fee on 5 shares, sold at 410 − 1 fee: 2,050 − 1 − 2,001 = 48.
      await expect(rows(page).first()).toContainText("P/L +$48.00");
      await expect(page.getByText("Net +$48.00 (realised, net of fees)")).toBeVisible();

      await filter(page, "Period", "Last 30 Days").click();
      await expect(page).toHaveURL(/\/portfolio\?instrument=all&period=30d$/);
      await expect(rows(page)).toHaveCount(2);
      await filter(page, "Instrument", "Options").click();
      await expect(page).toHaveURL(/\?instrument=options&period=30d$/);
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page).first()).toContainText("KO");
      await expect(rows(page).first()).toContainText(/KO\d{6}P00050000/);
      await filter(page, "Instrument", "Stocks").click();
      await expect(page).toHaveURL(/\?instrument=stocks&period=30d$/);
      await expect(rows(page)).toHaveCount(1);
      await filter(page, "Period", "All Time").click();
      await expect(page).toHaveURL(/\?instrument=stocks&period=all$/);
      await expect(rows(page)).toHaveCount(2);
      await page.reload();
      await expectCurrent(page, "Instrument", "Stocks");
      await expect(rows(page)).toHaveCount(2);
      // The open put: its collateral and premium, net of the opening fee.
      const put = card(page, /^Short KO 50 put/);
      await expect(figure(put, "Collateral in use (strike × 100 × contracts)")).toHaveText("$5,000.00");
      await expect(figure(put, "Premium kept (net of fees)")).toHaveText("$99.00");
      await expect(figure(put, "Days held")).toHaveText("20");
      await expect(figure(put, "Mark (mid of bid and ask, per share)")).toHaveText(/^\$\d+\.\d{2}$|^No quote$/);
    });

    test("a stock trade saved through the form, with its exit, and a refused one keeps its values", async ({
      page,
    }) => {
      const trader = await createTrader([]);
      await signInAs(page, trader);
      await page.goto("/add-trade");
      await page.getByRole("button", { name: "Stocks" }).click();
      await expect(page).toHaveURL(/\/add-trade\?form=stocks$/);
      await field(page, "Symbol").fill("ko");
      await field(page, "Price per share").fill("60");
      await field(page, "Shares").fill("10");
      await field(page, "Fees (commission and fees, $)").fill("1");
      await field(page, "Date and time (UTC)").fill("2026-01-05T15:30");
      if (javaScriptEnabled) await dialog(page).getByRole("tab", { name: "Exit" }).click();
      await field(page, "Closing price").fill("62");
      await field(page, "Exit fees ($)").fill("1");
      await field(page, "Exit date and time (UTC)").fill("2026-01-20T15:30");
      await dialog(page).getByRole("button", { name: "Save trade" }).click();
      await expect(page).toHaveURL(/\/portfolio\?period=all$/);
      await expectSaved(page, "Trade saved: KO shares and its exit", javaScriptEnabled);
      await expect(rows(page)).toHaveCount(2);
      // 10 × (62 − 60) − 1 − 1 = 18
      await expect(rows(page).first()).toContainText("P/L +$18.00");

      // Selling more than is held is refused with the reason; every value stays.
      await page.goto("/add-trade?form=stocks");
      await dialog(page).getByRole("radio", { name: "Sell" }).check();
      await field(page, "Symbol").fill("KO");
      await field(page, "Price per share").fill("63");
      await field(page, "Shares").fill("5");
      await field(page, "Fees (commission and fees, $)").fill("0");
      await field(page, "Date and time (UTC)").fill("2026-02-01T10:00");
      await dialog(page).getByRole("button", { name: "Save trade" }).click();
      await expect(dialog(page).getByText("Selling 5 shares of KO is more than the 0 shares held")).toBeVisible();
      await expect(field(page, "Price per share")).toHaveValue("63");
      await expect(dialog(page).getByRole("radio", { name: "Sell" })).toBeChecked();
      expect(await journalOf(trader)).toHaveLength(2);
    });

    test("refuses a Saturday expiry and a call beyond the shares held, each beside its field, keeping the values", async ({
      page,
    }) => {
      const trader = await createTrader([]);
      await signInAs(page, trader);
      await page.goto("/add-trade?form=options");
      await field(page, "Underlying symbol").fill("KO");
      await field(page, "Strike").fill("60");
      await field(page, "Expiry").fill("2026-12-19");
      await field(page, "Contracts").fill("1");
      await field(page, "Premium per share").fill("1.2");
      await field(page, "Fees (commission and fees, $)").fill("0.65");
      await field(page, "Date and time (UTC)").fill(daysAgo(1).slice(0, 16));
      await dialog(page).getByRole("button", { name: "Save trade" }).click();
      await expect(field(page, "Expiry")).toHaveAccessibleDescription(
        "Expiry 2026-12-19 is a Saturday: options expire on exchange trading days",
      );
      await expect(field(page, "Expiry")).toHaveValue("2026-12-19");
      await expect(field(page, "Strike")).toHaveValue("60");
      await expect(field(page, "Premium per share")).toHaveValue("1.2");

      // A call with no KO shares: the product records covered calls only.
      await dialog(page).getByRole("group", { name: "Put or call" }).getByRole("radio", { name: "Call" }).check();
      await field(page, "Strike").fill("70");
      await field(page, "Expiry").fill(weeklyExpiryIn(14));
      await dialog(page).getByRole("button", { name: "Save trade" }).click();
      await expect(field(page, "Contracts")).toHaveAccessibleDescription(
        "Not covered: 1 call on KO need 100 shares, and 0 shares of KO are held and not already covering a call. " +
          "Only covered calls are recorded: record the shares first.",
      );
      await expect(
        dialog(page).getByRole("group", { name: "Put or call" }).getByRole("radio", { name: "Call" }),
      ).toBeChecked();
      await expect(field(page, "Strike")).toHaveValue("70");
      expect(await journalOf(trader)).toHaveLength(0);
    });
  });
}

/** Fills and saves the options form. */
async function saveOption(
  page: Page,
  trade: {
    action: string;
    type: "Put" | "Call";
    strike: string;
    expiry: string;
    premium: string;
    fees: string;
    at: string;
  },
) {
  await page.goto("/add-trade?form=options");
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole("group", { name: "What happened" }).getByRole("radio", { name: trade.action }).check();
  await field(page, "Underlying symbol").fill("KO");
  await dialog(page).getByRole("group", { name: "Put or call" }).getByRole("radio", { name: trade.type }).check();
  await field(page, "Strike").fill(trade.strike);
  await field(page, "Expiry").fill(trade.expiry);
  await field(page, "Contracts").fill("1");
  await field(page, "Premium per share").fill(trade.premium);
  await field(page, "Fees (commission and fees, $)").fill(trade.fees);
  await field(page, "Date and time (UTC)").fill(trade.at);
  await dialog(page).getByRole("button", { name: "Save trade" }).click();
}

test("one whole wheel through the forms: cost basis, P/L and annualised return; a second trader sees none of it", async ({
  page,
  browser,
}) => {
  const trader = await createTrader([]);
  await recordToasts(page);
  await signInAs(page, trader);

  // An assignment with no open put is refused, with the reason.
  await saveOption(page, {
    action: "Assigned (put)",
    type: "Put",
    strike: "50",
    expiry: "2026-01-30",
    premium: "0",
    fees: "0",
    at: "2026-01-30T12:00",
  });
  await expect(
    dialog(page).getByText(
      "Assignment needs an open short put: there is no open short KO 50 put expiring 2026-01-30 to close",
    ),
  ).toBeVisible();

  // 5 Jan: sell 1 KO 50 put @ 2.00, fee 1.00: premium kept 199.00 on 5,000 of collateral.
  await saveOption(page, {
    action: "Sell to open",
    type: "Put",
    strike: "50",
    expiry: "2026-01-30",
    premium: "2",
    fees: "1",
    at: "2026-01-05T12:00",
  });
  await expectToast(page, "Trade saved: KO 50 put");
  const put = card(page, /^Short KO 50 put/);
  await expect(put).toContainText("KO260130P00050000");
  await expect(figure(put, "Premium kept (net of fees)")).toHaveText("$199.00");
  // Its expiry is long past: it awaits its resolution, with no collateral or days held (ADR 0078).
  await expect(put).toContainText("Expired: awaiting resolution");
  await expect(figure(put, "Collateral in use (strike × 100 × contracts)")).toHaveCount(0);
  await expect(figure(put, "Days held")).toHaveCount(0);

  // 30 Jan: assigned, recorded from the card's link (the form filled in at the 16:00 New York close):
  // 100 shares at 50; adjusted cost basis 50 − 1.99 = 48.01.
  await put.getByRole("link", { name: "Record as assigned: KO 50 put" }).click();
  await expect(dialog(page).getByRole("radio", { name: "Assigned (put)" })).toBeChecked();
  await expect(field(page, "Contracts")).toHaveValue("1");
  await expect(field(page, "Premium per share")).toHaveValue("0");
  await expect(field(page, "Date and time (UTC)")).toHaveValue("2026-01-30T21:00");
  await dialog(page).getByRole("button", { name: "Save trade" }).click();
  await expectToast(page, "Trade saved: KO 50 put");
  const shares = card(page, "KO shares");
  await expect(shares).toContainText("100 shares of KO");
  await expect(figure(shares, "Average cost per share")).toHaveText("$50.00");
  await expect(figure(shares, "Adjusted cost basis per share (net of the cycle's premiums and fees)")).toHaveText(
    "$48.01",
  );

  // 2 Feb: covered call 55 @ 1.00, fee 1.00 → 48.01 − 0.99 = 47.02; it expires on 27 Feb.
  await saveOption(page, {
    action: "Sell to open",
    type: "Call",
    strike: "55",
    expiry: "2026-02-27",
    premium: "1",
    fees: "1",
    at: "2026-02-02T12:00",
  });
  await expect(figure(shares, "Adjusted cost basis per share (net of the cycle's premiums and fees)")).toHaveText(
    "$47.02",
  );
  await saveOption(page, {
    action: "Expired",
    type: "Call",
    strike: "55",
    expiry: "2026-02-27",
    premium: "0",
    fees: "0",
    at: "2026-02-27T12:00",
  });

  // 2 Mar: call 52 @ 1.50, fee 1.00 → 47.02 − 1.49 = 45.53; called away at 52 on 27 Mar.
  await saveOption(page, {
    action: "Sell to open",
    type: "Call",
    strike: "52",
    expiry: "2026-03-27",
    premium: "1.5",
    fees: "1",
    at: "2026-03-02T12:00",
  });
  await expect(figure(shares, "Adjusted cost basis per share (net of the cycle's premiums and fees)")).toHaveText(
    "$45.53",
  );
  await saveOption(page, {
    action: "Called away (call)",
    type: "Call",
    strike: "52",
    expiry: "2026-03-27",
    premium: "0",
    fees: "0",
    at: "2026-03-27T12:00",
  });

  // By hand: put 199 + call 99 + (call 149 + 5,200 − 5,000) = 647.00 on 5,000 of capital;
  // collateral-days 5,000 × 81 days (5 Jan → 27 Mar) = 405,000; 647 ÷ 405,000 × 365 = 58.31 %.
  const pnl = 199 + 99 + (149 + 5200 - 5000);
  const annualised = ((pnl / (5000 * 81)) * 365 * 100).toFixed(2);
  expect(annualised).toBe("58.31");
  const cycle = card(page, /^KO cycle from/);
  await expect(cycle).toContainText("Closed");
  await expect(figure(cycle, "Realised P/L (net of fees)")).toHaveText(`+$${pnl.toFixed(2)}`);
  await expect(figure(cycle, "Return on capital")).toHaveText(`${((pnl / 5000) * 100).toFixed(2)}%`);
  await expect(figure(cycle, "Annualised return on collateral-days")).toHaveText(`${annualised}%`);
  await expect(figure(cycle, "Premium (net of fees and buy-backs)")).toHaveText("$447.00");
  await expect(card(page, "KO shares")).toHaveCount(0);
  await expect(rows(page)).toHaveCount(6);
  await expect(
    figure(page.locator("#journal-figures").locator(".."), "Win rate (closed cycles with a gain)"),
  ).toHaveText("100.00% of 1 cycle");

  // A second trader sees none of it.
  const other = await createTrader([]);
  const context = await browser.newContext();
  const second = await context.newPage();
  await signInAs(second, other);
  await second.goto("/portfolio?period=all");
  await expect(second.getByText("No trades in this period.")).toBeVisible();
  await expect(second.getByRole("list", { name: "Wheel cycles" })).toHaveCount(0);
  await expect(second.getByText("KO260130P00050000")).toHaveCount(0);
  await context.close();
});

test("an expired put awaiting resolution: no days held or collateral, and its link records it before the scripts run", async ({
  browser,
}) => {
  const trader = await createTrader([]);
  // Sold 1 Oct, expired Friday 16 Oct 2026, never recorded: nothing is held against it any more.
  await addByApi(trader, {
    kind: "sell_to_open",
    ticker: "KO",
    option_type: "put",
    strike: 60,
    expiry: "2026-10-16",
    quantity: 1,
    price: 1,
    fees: 0.65,
    traded_at: "2026-10-01T15:00:00.000Z",
  });
  // No service worker: it would answer the scripts from its cache, past holdScripts.
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  await signInAs(page, trader);
  const release = await holdScripts(page);
  await page.goto("/portfolio?period=all", { waitUntil: "domcontentloaded" });
  const put = card(page, /^Short KO 60 put/);
  await expect(put).toContainText("Expired: awaiting resolution");
  await expect(figure(put, "Premium kept (net of fees)")).toHaveText("$99.35");
  await expect(figure(put, "Days held")).toHaveCount(0);
  await expect(figure(put, "Collateral in use (strike × 100 × contracts)")).toHaveCount(0);
  await expect(put.getByRole("link", { name: "Roll candidates: KO 60 put expiring 2026-10-16" })).toHaveCount(0);

  // Pressed before the scripts run: the form opens filled in (16:00 New York is 20:00 UTC in October).
  await put.getByRole("link", { name: "Record as expired: KO 60 put" }).click();
  await expect(dialog(page).getByRole("radio", { name: "Expired" })).toBeChecked();
  await expect(field(page, "Underlying symbol")).toHaveValue("KO");
  await expect(field(page, "Strike")).toHaveValue("60");
  await expect(field(page, "Expiry")).toHaveValue("2026-10-16");
  await expect(field(page, "Fees (commission and fees, $)")).toHaveValue("0");
  await expect(field(page, "Date and time (UTC)")).toHaveValue("2026-10-16T20:00");
  await dialog(page).getByRole("button", { name: "Save trade" }).click();
  await expect(page).toHaveURL(/\/portfolio\?period=all$/);
  await expect(page.getByText("Trade saved: KO 60 put", { exact: true })).toBeVisible();
  await expect(card(page, /^Short KO 60 put/)).toHaveCount(0);
  await expect(rows(page).first()).toContainText("P/L +$99.35");
  release();
  expect(await journalOf(trader)).toHaveLength(2);
  await context.close();
});

test("Record this trade: the link opens the options form filled with the recommendation", async ({ page }) => {
  const trader = await createTrader([]);
  await signInAs(page, trader);
  await page.goto("/add-trade?ticker=KO&strike=52.5&expiry=2026-12-18&bid=1.25&type=put");
  await expect(page.getByRole("dialog", { name: "Add Options Trade" })).toBeVisible();
  await expect(dialog(page).getByRole("radio", { name: "Sell to open" })).toBeChecked();
  await expect(field(page, "Underlying symbol")).toHaveValue("KO");
  await expect(
    dialog(page).getByRole("group", { name: "Put or call" }).getByRole("radio", { name: "Put" }),
  ).toBeChecked();
  await expect(field(page, "Strike")).toHaveValue("52.5");
  await expect(field(page, "Expiry")).toHaveValue("2026-12-18");
  await expect(field(page, "Premium per share")).toHaveValue("1.25");
  await expect(field(page, "Contracts")).toHaveValue("1");
});

test("Record this trade on a recommended put's detail opens the form with that put at its bid", async ({ page }) => {
  const trader = await createTrader([]);
  const put = (await optionsOf(trader, "AAPL"))[0]!;
  await signInAs(page, trader);
  await page.goto(`/recommendation/${put.id}`);
  await page.getByRole("link", { name: "Record this trade" }).click();
  await expect(page.getByRole("dialog", { name: "Add Options Trade" })).toBeVisible();
  await expect(dialog(page).getByRole("radio", { name: "Sell to open" })).toBeChecked();
  await expect(field(page, "Underlying symbol")).toHaveValue("AAPL");
  await expect(field(page, "Strike")).toHaveValue(String(put.strike_price));
  await expect(field(page, "Expiry")).toHaveValue(put.expiration_date);
  await expect(field(page, "Premium per share")).toHaveValue(String(put.bid));
});

test("offline, a new trade waits in the outbox and is stored exactly once when back online", async ({
  page,
  context,
}) => {
  const trader = await createTrader([]);
  await recordToasts(page);
  await page.goto("/login");
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, { timeout: 30_000 });
  await signInAs(page, trader);
  await page.goto("/add-trade?form=stocks");
  await expect(dialog(page)).toBeVisible();

  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
  await field(page, "Symbol").fill("PEP");
  await field(page, "Price per share").fill("160");
  await field(page, "Shares").fill("3");
  await field(page, "Fees (commission and fees, $)").fill("1");
  await dialog(page).getByRole("button", { name: "Save trade" }).click();
  await expectToast(page, "Record a trade of PEP: saved on this device, and sent when you are back online.");
  await expect(field(page, "Price per share")).toHaveValue("160");
  expect(await journalOf(trader)).toHaveLength(0);

  await context.setOffline(false);
  await expectToast(page, "Trade saved: PEP shares");
  await expect.poll(async () => (await journalOf(trader)).length).toBe(1);
  // Sent once: a reload and a retry add nothing more.
  await page.reload();
  expect(await journalOf(trader)).toHaveLength(1);
});

const fixture = (name: string) => new URL(`../../provider/journal/brokers/fixtures/${name}`, import.meta.url).pathname;

test.describe("broker imports", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`Interactive Brokers: preview, import, and the same file again adds nothing (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      if (javaScriptEnabled) await recordToasts(page);
      const trader = await createTrader([]);
      await signInAs(page, trader);
      await page.goto("/portfolio");
      await page.getByRole("link", { name: "Import from a broker" }).click();
      await page.getByLabel("Broker").selectOption("ibkr");
      await page.getByLabel("CSV, OFX or QFX file (under 1 MB)").setInputFiles(fixture("ibkr-activity-statement.csv"));
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("status")).toHaveText(
        "6 to add · 0 already imported · 0 refused · 14 lines not trades",
      );
      await expect(page.getByRole("list", { name: "Will be added" }).getByRole("listitem").first()).toHaveText(
        // The statement's 10:31 is New York's (ADR 0074).
        "Line 9: sell to open 1 KO 50 put 2026-01-30 @ 2, fees 1, 2026-01-05 15:31 UTC",
      );
      expect(await journalOf(trader)).toHaveLength(0);
      await page.getByRole("button", { name: "Import 6 trades" }).click();
      await expect(page).toHaveURL(/\/portfolio\?period=all$/);
      await expectSaved(page, "Imported 6 trades; 0 already in the journal, 0 refused", javaScriptEnabled);
      await expect(rows(page)).toHaveCount(6);
      // 50 − 1.99 − 0.99 premiums, − 0.51 the dividend a share.
      await expect(
        figure(card(page, "KO shares"), "Adjusted cost basis per share (net of the cycle's premiums and fees)"),
      ).toHaveText("$46.51");

      await page.goto("/import-trades");
      await page.getByLabel("Broker").selectOption("ibkr");
      await page.getByLabel("CSV, OFX or QFX file (under 1 MB)").setInputFiles(fixture("ibkr-activity-statement.csv"));
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("status")).toHaveText(
        "0 to add · 6 already imported · 0 refused · 14 lines not trades",
      );
      await expect(page.getByText("Already imported: lines 9, 10, 11, 12, 16, 20.")).toBeVisible();
      await expect(page.getByText("Nothing to import.")).toBeVisible();
      expect(await journalOf(trader)).toHaveLength(6);
      await context.close();
    });
  }

  test("tastytrade: a whole wheel imported; a malformed file and a bad line are refused with the reason", async ({
    page,
  }) => {
    const trader = await createTrader([]);
    await recordToasts(page);
    await signInAs(page, trader);
    await page.goto("/import-trades");
    await page.getByLabel("Broker").selectOption("tastytrade");
    await page.getByLabel("CSV, OFX or QFX file (under 1 MB)").setInputFiles(fixture("ibkr-activity-statement.csv"));
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(
      page.getByText(/^This is not a tastytrade transactions file: the columns .* are missing$/),
    ).toBeVisible();

    const text = readFileSync(fixture("tastytrade-transactions.csv"), "utf8").replace(
      '"-2,900.00",5,',
      '"-2,900.00",five,',
    );
    await page.getByLabel("Broker").selectOption("tastytrade");
    await page
      .getByLabel("CSV, OFX or QFX file (under 1 MB)")
      .setInputFiles({ name: "transactions.csv", mimeType: "text/csv", buffer: Buffer.from(text) });
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("status")).toHaveText("6 to add · 0 already imported · 1 refused · 3 lines not trades");
    await expect(page.getByRole("list", { name: "Refused lines" })).toHaveText(
      'Line 11: Quantity "five" is not a number above 0',
    );
    await page.getByRole("button", { name: "Import 6 trades" }).click();
    await expectToast(page, "Imported 6 trades; 0 already in the journal, 1 refused");
    const cycle = card(page, /^PEP cycle from/);
    // 210 − 1.14 + 150 − 1.14 + (165 − 160) × 100 − 0.35 (the called-away shares' fee) = 857.37
    await expect(figure(cycle, "Realised P/L (net of fees)")).toHaveText("+$857.37");
  });
});

test.describe("OFX/QFX investment statements (ADR 0089)", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`the KO wheel's statement previewed, imported, and again adds nothing (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      if (javaScriptEnabled) await recordToasts(page);
      const trader = await createTrader([]);
      await signInAs(page, trader);
      const preview = async () => {
        await page.goto("/import-trades");
        await page.getByLabel("Broker").selectOption("ofx");
        await page.getByLabel("CSV, OFX or QFX file (under 1 MB)").setInputFiles(fixture("ofx-ko-wheel.ofx"));
        await page.getByRole("button", { name: "Preview" }).click();
      };
      await preview();
      await expect(page.getByRole("status")).toHaveText(
        "7 to add · 0 already imported · 0 refused · 3 lines not trades",
      );
      await page.getByRole("button", { name: "Import 7 trades" }).click();
      await expect(page).toHaveURL(/\/portfolio\?period=all$/);
      await expectSaved(page, "Imported 7 trades; 0 already in the journal, 0 refused", javaScriptEnabled);
      await expect(rows(page)).toHaveCount(7);
      await expect(rows(page).first()).toContainText("imported from an OFX/QFX statement");
      // The hand-worked KO wheel (provider/routes/trade-imports.test.ts): 755.46 + the 102.00 dividend.
      await expect(figure(card(page, /^KO cycle from/), "Realised P/L (net of fees)")).toHaveText("+$857.46");

      await preview();
      await expect(page.getByRole("status")).toHaveText(
        "0 to add · 7 already imported · 0 refused · 3 lines not trades",
      );
      await expect(page.getByText("Nothing to import.")).toBeVisible();
      expect(await journalOf(trader)).toHaveLength(7);
      await context.close();
    });
  }
});

test.describe("a broker file that starts mid-cycle (ADR 0074)", () => {
  // The KO wheel's statement from the assignment on: its put was sold before the file begins.
  const midCycle = readFileSync(fixture("ibkr-ko-wheel.csv"), "utf8")
    .split("\n")
    .filter((l) => !l.includes("KO 12JUN26") && !l.includes('KO 17JUL26 65 P,"2026-05-26'))
    .join("\n");
  for (const javaScriptEnabled of [true, false]) {
    test(`the opening put's premium is asked, typed, previewed and imported (JavaScript ${javaScriptEnabled ? "on, held until the import" : "off"})`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled, serviceWorkers: "block" });
      const page = await context.newPage();
      const trader = await createTrader([]);
      await signInAs(page, trader);
      // A slow phone: everything up to the import is done before the page's scripts run.
      const release = javaScriptEnabled ? await holdScripts(page) : () => {};
      await page.goto("/import-trades", { waitUntil: "domcontentloaded" });
      await page.getByLabel("Broker").selectOption("ibkr");
      await page
        .getByLabel("CSV, OFX or QFX file (under 1 MB)")
        .setInputFiles({ name: "statement.csv", mimeType: "text/csv", buffer: Buffer.from(midCycle) });
      await page.getByRole("button", { name: "Preview", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Opening positions" })).toBeVisible();
      await expect(page.getByRole("list", { name: "Refused lines" }).getByRole("listitem")).toHaveCount(2);
      await page.getByLabel("2 short KO 65 put 2026-07-17: premium a share ($)").fill("2.10");
      await page.getByRole("button", { name: "Preview with these prices" }).click();
      await expect(page.getByRole("status")).toHaveText(
        "4 to add · 0 already imported · 0 refused · 9 lines not trades",
      );
      await expect(page.getByRole("list", { name: "Will be added" }).getByRole("listitem").first()).toHaveText(
        "Opening position: sell to open 2 KO 65 put 2026-07-17 @ 2.1, fees 0, 2026-07-17 20:19 UTC",
      );
      await expect(page.getByLabel("2 short KO 65 put 2026-07-17: premium a share ($)")).toHaveValue("2.10");
      release();
      await page.getByRole("button", { name: "Import 4 trades" }).click();
      await expect(page).toHaveURL(/\/portfolio\?period=all$/);
      const cycle = card(page, /^KO cycle from/);
      // 2 × 100 × 2.10 − 0.17 + 188.95 + 200 × (66 − 65) − 0.17 = 808.61
      await expect(figure(cycle, "Realised P/L (net of fees)")).toHaveText("+$808.61");
      expect(await journalOf(trader)).toHaveLength(4);
      await context.close();
    });
  }
});

test("the journal downloads as CSV", async ({ page }) => {
  const trader = await createTrader([]);
  await addByApi(trader, {
    kind: "stock_buy",
    ticker: "KO",
    quantity: 10,
    price: 60,
    fees: 1,
    traded_at: "2026-01-05T15:00:00.000Z",
  });
  await signInAs(page, trader);
  await page.goto("/portfolio");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await download;
  const text = readFileSync((await file.path())!, "utf8");
  expect(text.split("\r\n")[0]).toBe(
    "id,traded_at,kind,ticker,option_type,strike,expiry,occ_symbol,quantity,price,fees,realised_pnl,rolled_from,portfolio,strategy,notes,source",
  );
  expect(text).toContain(",2026-01-05T15:00:00.000Z,stock_buy,KO,,,,,10,60,1,,,Default Portfolio,,,manual");
});
