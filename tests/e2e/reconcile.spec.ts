import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { holdScripts, waitForHydration } from "./support/hydration.ts";
import { createTrader, expectToast, recordToasts, signInAs } from "./support/watchlist.ts";
import { weeklyExpiryIn } from "#provider/testing/expiries.ts";

/**
 * Issue 43 item 4 / ADR 0094: a trader imports an Interactive Brokers statement whose Open Positions
 * differ from its trades by two planted differences (100 KO shares the trades never bought; the
 * MSFT put the trades sold, which the broker no longer holds), opens /reconcile, sees both, fixes
 * each and sees the journal match; with and without JavaScript. Real build, embedded provider.
 */
test.describe.configure({ timeout: 180_000 });

const DAY = 86_400_000;
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
/** A day in New York, as the statement's clock writes it. */
const nyDate = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(ms);
const longDate = (iso: string) =>
  `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;

/**
 * An activity statement up to yesterday: one MSFT put sold five days ago; its positions: 100 KO shares
 * only; its cash $30,000.
 */
function statement() {
  const expiry = weeklyExpiryIn(28);
  const [y, m, d] = expiry.split("-");
  const symbol = `MSFT ${d}${MONTHS[Number(m) - 1]!.slice(0, 3).toUpperCase()}${y!.slice(2)} 400 P`;
  const end = nyDate(Date.now() - DAY);
  const lines = [
    "Statement,Header,Field Name,Field Value",
    `Statement,Data,Period,"${longDate(nyDate(Date.now() - 30 * DAY))} - ${longDate(end)}"`,
    "Trades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,T. Price,C. Price,Proceeds,Comm/Fee,Basis,Realized P/L,MTM P/L,Code",
    `Trades,Data,Order,Equity and Index Options,USD,${symbol},"${nyDate(Date.now() - 5 * DAY)}, 10:00:00",-1,5,5,500,-1,-499,0,0,O`,
    "Open Positions,Header,DataDiscriminator,Asset Category,Currency,Symbol,Quantity,Mult,Cost Price,Cost Basis,Close Price,Value,Unrealized P/L,Code",
    "Open Positions,Data,Summary,Stocks,USD,KO,100,1,62.5,6250,63,6300,50,",
    // The account's cash at the period's end (ADR 0098): $30,000, short of the MSFT put's $40,000.
    "Cash Report,Header,Currency Summary,Currency,Total,Securities,Futures,Month to Date,Year to Date,",
    'Cash Report,Data,Ending Cash,Base Currency Summary,"30,000",30000,0,,,',
  ];
  return { csv: `${lines.join("\n")}\n`, expiry };
}

async function importStatement(page: Page, csv: string) {
  await page.goto("/import-trades");
  await page.getByLabel("Broker").selectOption("ibkr");
  await page
    .getByLabel("CSV, OFX or QFX file (under 1 MB)")
    .setInputFiles({ name: "statement.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByText(/^The file lists 1 open position as of/)).toBeVisible();
  await page.getByRole("button", { name: "Import 1 trade" }).click();
  await expect(page).toHaveURL(/\/portfolio/);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Reconcile, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the planted differences are shown, each fixed, and the journal matches", async ({ page }) => {
      if (javaScriptEnabled) await recordToasts(page);
      const trader = await createTrader([]);
      await signInAs(page, trader);
      await page.goto("/reconcile");
      await expect(page.getByText("No broker has told us your positions yet.")).toBeVisible();

      const { csv, expiry } = statement();
      await importStatement(page, csv);
      await page.getByRole("link", { name: "Reconcile with the broker" }).click();
      await expect(page).toHaveURL(/\/reconcile$/);
      await expect(page.getByText(/^Your journal beside Interactive Brokers's positions as of/)).toBeVisible();
      const differences = page.getByRole("list", { name: "Differences" }).getByRole("listitem");
      await expect(differences).toHaveCount(2);
      await expect(differences.nth(0)).toContainText(
        "Interactive Brokers holds KO shares (100 shares at $62.50 a share); your journal has none.",
      );
      await expect(differences.nth(1)).toContainText(
        `Your journal holds MSFT 400 put ${expiry} (1 short at $4.99 premium a share); Interactive Brokers has none.`,
      );

      // The cash check, in words: the journal's MSFT 400 put commits $40,000 against the broker's $30,000.
      const cash = page.getByRole("region", { name: "Cash for your puts" });
      await expect(cash).toContainText(
        "Not covered: $40,000.00 committed, Interactive Brokers holds $30,000.00 cash: $10,000.00 short.",
      );
      await expect(cash).toContainText("strike × 100 × contracts");

      // One tap: the broker gives the shares' cost.
      await page.getByRole("button", { name: "Add a purchase of 100 KO shares at $62.50" }).click();
      if (javaScriptEnabled) await expectToast(page, "Recorded in the journal");
      await expect(differences).toHaveCount(1);

      // A buy-back needs its price: a wrong one is refused and kept, then the right one recorded.
      const price = page.getByLabel(`Price a share for MSFT 400 put ${expiry}`);
      await price.fill("1o5");
      await page.getByRole("button", { name: `Record a buy-back of 1 MSFT 400 put ${expiry}` }).click();
      // The fix's own error, beside toasts of the earlier steps that may still be on screen.
      await expect(page.locator(".error-list[role=alert]")).toHaveText("Price must be a number");
      await expect(price).toHaveValue("1o5");
      await price.fill("1.05");
      await page.getByRole("button", { name: `Record a buy-back of 1 MSFT 400 put ${expiry}` }).click();

      await expect(page.getByRole("status").filter({ hasText: "Your journal matches" })).toHaveText(
        /^Your journal matches Interactive Brokers as of .+ UTC\.$/,
      );
      await expect(page.getByRole("list", { name: "Differences" })).toHaveCount(0);
      // Bought back, the put commits nothing: the cash covers the journal's puts.
      await expect(cash).toContainText(
        "$0.00 committed, Interactive Brokers holds $30,000.00 cash: covered, $30,000.00 to spare.",
      );
    });

    test("a Schwab positions export arrives on the import form and becomes the book compared", async ({ page }) => {
      const trader = await createTrader([]);
      await signInAs(page, trader);
      const csv = [
        `"Positions for account Individual ...123 as of 04:10 PM ET, ${nyDate(Date.now() - DAY).replaceAll("-", "/")}"`,
        '"Symbol","Description","Qty (Quantity)","Price","Mkt Val (Market Value)","Cost Basis","Security Type"',
        '"KO","COCA-COLA CO","100","$61.20","$6,120.00","$5,001.00","Equity"',
        '"Cash & Cash Investments","--","--","--","$13,250.40","--","Cash and Money Market"',
        '"Account Total","--","--","--","$19,370.40","$5,001.00","--"',
      ].join("\n");
      await page.goto("/import-trades");
      await page.getByLabel("Broker").selectOption("schwab");
      await page
        .getByLabel("CSV, OFX or QFX file (under 1 MB)")
        .setInputFiles({ name: "positions.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(
        page.getByText(/^The file lists 1 open position as of .+ UTC, and \$13,250\.40 cash:/),
      ).toBeVisible();
      await page.getByRole("button", { name: "Save the open positions" }).click();
      await expect(page).toHaveURL(/\/portfolio/);
      await page.goto("/reconcile");
      await expect(page.getByText(/^Your journal beside Schwab's positions as of/)).toBeVisible();
      await expect(page.getByRole("list", { name: "Differences" }).getByRole("listitem")).toHaveText([
        /Schwab holds KO shares \(100 shares at \$50\.01 a share\); your journal has none\./,
      ]);
      await expect(page.getByRole("region", { name: "Cash for your puts" })).toContainText(
        "$0.00 committed, Schwab holds $13,250.40 cash: covered, $13,250.40 to spare.",
      );
    });
  });
}

test("a price typed before the page's scripts run is kept, and the fix works either way", async ({ browser }) => {
  const trader = await createTrader([]);
  // No service worker: it would answer the scripts from its cache, past holdScripts.
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  await signInAs(page, trader);
  const { csv, expiry } = statement();
  await importStatement(page, csv);

  const release = await holdScripts(page);
  await page.goto("/reconcile", { waitUntil: "domcontentloaded" });
  const price = page.getByLabel(`Price a share for MSFT 400 put ${expiry}`);
  await price.fill("2.2");
  release();
  await waitForHydration(page);
  await expect(price).toHaveValue("2.2");
  await page.getByRole("button", { name: `Record a buy-back of 1 MSFT 400 put ${expiry}` }).click();
  await expect(page.getByRole("list", { name: "Differences" }).getByRole("listitem")).toHaveCount(1);
  await context.close();
});
