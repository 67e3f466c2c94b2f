import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import * as calls from "#contract/calls.ts";
import type { RollCandidates } from "#contract/rolls.ts";
import { strikeStep } from "#provider/market/option-model.ts";
import { optionsOf } from "./support/insights.ts";
import { createTrader, expectToast, providerCall, recordToasts, signInAs } from "./support/watchlist.ts";

/**
 * Roll candidates (docs/product.md#screens-roll-candidates) in the real build: a tested put on the
 * Trades screen, its ranked candidates, and "Record this roll" through the form to the new position.
 */
test.describe.configure({ timeout: 90_000 });

const dialog = (page: Page) => page.getByRole("dialog");
const field = (page: Page, label: string) => dialog(page).getByLabel(label, { exact: true });
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const formatDay = (iso: string) => day.format(new Date(`${iso}T00:00:00Z`));
/** Serious or critical WCAG 2.1 A/AA violations on the page as it stands (as tests/e2e/accessibility.spec.ts checks). */
async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${v.help} — ${n.target.join(" ")}`));
}
const position = (page: Page, strike: number, expiry: string) =>
  page.getByRole("listitem", { name: `Short AAPL ${strike} put · exp ${formatDay(expiry)}`, exact: true });

test("a tested put's roll candidates are listed, ranked, and a roll recorded from them shows as the new position", async ({
  page,
}) => {
  const trader = await createTrader([]);
  // A listed AAPL put struck at the first strike at or above the stock: tested (stock at or below strike × 1.03).
  const recommended = (await optionsOf(trader, "AAPL"))[0]!;
  const spot = recommended.current_stock_price;
  const step = strikeStep(spot);
  const strike = Math.ceil(spot / step) * step;
  const expiry = recommended.expiration_date;
  const sold = await providerCall<{ id: number }>(trader.providerUrl, calls.addTrade, {
    token: trader.token,
    body: {
      kind: "sell_to_open",
      ticker: "AAPL",
      option_type: "put",
      strike,
      expiry,
      quantity: 1,
      price: 1,
      fees: 0.65,
      traded_at: new Date(Date.now() - 60_000).toISOString(),
    },
  });
  expect(sold.status, JSON.stringify(sold.body)).toBe(200);
  const api = await providerCall<RollCandidates>(trader.providerUrl, calls.rollCandidates, {
    token: trader.token,
    params: { tradeId: sold.body.id },
  });
  expect(api.status, JSON.stringify(api.body)).toBe(200);
  expect(api.body.candidates.length, "a near-the-money put has a later put for a net credit").toBeGreaterThan(0);

  await recordToasts(page);
  await signInAs(page, trader);
  await page.goto("/portfolio?period=all");
  const card = position(page, strike, expiry);
  // Written, not only coloured.
  await expect(card.getByText("Tested: the stock is within 3% of the strike or below it")).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);
  await card.getByRole("link", { name: /^Roll candidates/ }).click();

  await expect(page).toHaveURL(new RegExp(`/portfolio/roll/${sold.body.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Roll candidates" })).toBeVisible();
  await expect(page.getByText("Tested: the stock is within 3% of the strike or below it")).toBeVisible();
  const list = page.getByRole("list", { name: "Roll candidates" });
  // The simulated market moves (it replays a session while the exchange is closed), so the page's
  // own figures, not the earlier call's, are what its form must carry.
  await expect(list.getByRole("listitem").first()).toBeVisible();
  const first = list.getByRole("listitem").first();
  const record = first.getByRole("link", { name: /^Record this roll/ });
  const href = new URL((await record.getAttribute("href"))!, "http://localhost").searchParams;
  const best = { strike: Number(href.get("strike")), expiry: href.get("expiry")!, bid: Number(href.get("bid")) };
  await expect(first).toHaveAccessibleName(`#1: ${best.strike} put · exp ${formatDay(best.expiry)}`);
  await expect(first.getByText(`$${best.bid.toFixed(2)} / `)).toBeVisible();
  await expect(first.getByText("Net credit (new bid − ask to close − 2 commissions)")).toBeVisible();
  await expect(first.getByText("Chance of assignment (risk-neutral, N(−d2))")).toBeVisible();

  expect(await axeProblems(page)).toEqual([]);

  await record.click();
  await expect(page.getByRole("dialog", { name: "Record this roll" })).toBeVisible();
  await expect(field(page, "Contracts")).toHaveValue("1");
  // The buy-back is the ask the screen shows now, behind the form.
  const askShown = await page
    .locator(".journal-figure")
    .filter({ has: page.locator("dt", { hasText: "Buy back now (the ask)" }) })
    .locator("dd")
    .textContent();
  const buyBack = await field(page, "Buy-back price per share").inputValue();
  expect(askShown).toBe(`$${Number(buyBack).toFixed(2)} a share`);
  await expect(field(page, "New strike")).toHaveValue(String(best.strike));
  await expect(field(page, "New expiry")).toHaveValue(best.expiry);
  await expect(field(page, "New premium per share")).toHaveValue(String(best.bid));
  await expect(field(page, "New put's fees ($)")).toHaveValue("0.65");
  expect(await axeProblems(page)).toEqual([]);

  // More contracts than are open: the provider's reason, and every typed value kept.
  await field(page, "Contracts").fill("2");
  await field(page, "New premium per share").fill("9.99");
  await dialog(page).getByRole("button", { name: "Record this roll" }).click();
  await expect(dialog(page).getByRole("alert")).toContainText("is more than the open position of 1 contract");
  await expect(field(page, "Contracts")).toHaveValue("2");
  await expect(field(page, "New premium per share")).toHaveValue("9.99");

  await field(page, "Contracts").fill("1");
  await field(page, "New premium per share").fill(String(best.bid));
  await dialog(page).getByRole("button", { name: "Record this roll" }).click();
  await expect(page).toHaveURL(/\/portfolio\?period=all$/);
  await expectToast(page, `Roll recorded: AAPL ${strike} put into the ${best.strike} put expiring ${best.expiry}`);
  await expect(position(page, best.strike, best.expiry)).toBeVisible();
  await expect(position(page, strike, expiry)).toHaveCount(0);
});

test("someone else's position has no roll candidates to show", async ({ page }) => {
  const owner = await createTrader([]);
  const other = await createTrader([]);
  const recommended = (await optionsOf(owner, "AAPL"))[0]!;
  const sold = await providerCall<{ id: number }>(owner.providerUrl, calls.addTrade, {
    token: owner.token,
    body: {
      kind: "sell_to_open",
      ticker: "AAPL",
      option_type: "put",
      strike: recommended.strike_price,
      expiry: recommended.expiration_date,
      quantity: 1,
      price: recommended.bid,
      fees: 0.65,
      traded_at: new Date(Date.now() - 60_000).toISOString(),
    },
  });
  expect(sold.status).toBe(200);
  await signInAs(page, other);
  const response = await page.goto(`/portfolio/roll/${sold.body.id}`);
  expect(response?.status()).toBe(404);
  expect(response?.headers()["cache-control"]).toContain("no-store");
});

test("a tested covered call rolls up and out: its candidates, figures and the roll recorded as a call", async ({
  page,
}) => {
  const trader = await createTrader([]);
  const recommended = (await optionsOf(trader, "AAPL"))[0]!;
  const spot = recommended.current_stock_price;
  const step = strikeStep(spot);
  // A call struck at the first strike at or below the stock: in the money, tested.
  const strike = Math.floor(spot / step) * step;
  const expiry = recommended.expiration_date;
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
  const shares = await providerCall(trader.providerUrl, calls.addTrade, {
    token: trader.token,
    body: { kind: "stock_buy", ticker: "AAPL", quantity: 100, price: spot, fees: 0, traded_at: minutesAgo(2) },
  });
  expect(shares.status, JSON.stringify(shares.body)).toBe(200);
  const sold = await providerCall<{ id: number }>(trader.providerUrl, calls.addTrade, {
    token: trader.token,
    body: {
      kind: "sell_to_open",
      ticker: "AAPL",
      option_type: "call",
      strike,
      expiry,
      quantity: 1,
      price: 1,
      fees: 0.65,
      traded_at: minutesAgo(1),
    },
  });
  expect(sold.status, JSON.stringify(sold.body)).toBe(200);

  await recordToasts(page);
  await signInAs(page, trader);
  await page.goto("/portfolio?period=all");
  const card = page.getByRole("listitem", {
    name: `Short AAPL ${strike} call · exp ${formatDay(expiry)}`,
    exact: true,
  });
  await expect(card.getByText("Tested: the stock is within 3% of the strike or above it")).toBeVisible();
  await card.getByRole("link", { name: /^Roll candidates/ }).click();

  await expect(page).toHaveURL(new RegExp(`/portfolio/roll/${sold.body.id}$`));
  await expect(page.getByText(/at the same or a higher strike/)).toBeVisible();
  const first = page.getByRole("list", { name: "Roll candidates" }).getByRole("listitem").first();
  await expect(first).toHaveAccessibleName(/^#1: [\d.]+ call · exp /);
  await expect(
    first.getByText("Gain if called away at the new strike (new strike + this credit − adjusted basis)"),
  ).toBeVisible();
  await expect(first.getByText("Chance of being called away (risk-neutral, N(d2))")).toBeVisible();
  await expect(first.getByText(/New breakeven/)).toHaveCount(0);
  expect(await axeProblems(page)).toEqual([]);

  const record = first.getByRole("link", { name: /^Record this roll/ });
  const href = new URL((await record.getAttribute("href"))!, "http://localhost").searchParams;
  const best = { strike: Number(href.get("strike")), expiry: href.get("expiry")! };
  expect(best.strike).toBeGreaterThanOrEqual(strike);
  await record.click();
  await expect(field(page, "New call's fees ($)")).toHaveValue("0.65");
  await dialog(page).getByRole("button", { name: "Record this roll" }).click();
  await expect(page).toHaveURL(/\/portfolio\?period=all$/);
  await expectToast(page, `Roll recorded: AAPL ${strike} call into the ${best.strike} call expiring ${best.expiry}`);
  await expect(
    page.getByRole("listitem", { name: `Short AAPL ${best.strike} call · exp ${formatDay(best.expiry)}`, exact: true }),
  ).toBeVisible();
});
