import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import * as calls from "#contract/calls.ts";
import { createTrader, providerCall, signInAs, watchlistOf, type Trader } from "./support/watchlist.ts";
import { card, fixed, flaggedTrader, generateAs, optionsOf, shownStrikes, topLineOf } from "./support/insights.ts";

/**
 * Issue 16 / ADR 0022: two traders with different plans for the same stock each see only strikes
 * at or below their own conservative value, whoever generated last, and one's levels never change
 * the other's list. Real build, real embedded provider, real (simulated) market.
 */
test.describe.configure({ timeout: 120_000 });

const TICKER = "TSLA";
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Levels as fractions of the price, buy levels under the conservative value. */
const plan = (price: number, conservative: number) => ({
  ticker: TICKER,
  base_iv: round2(price * 1.1),
  conservative_iv: round2(price * conservative),
  buy_level_one: round2(price * (conservative - 0.01)),
  buy_level_two: round2(price * (conservative - 0.04)),
  buy_level_three: round2(price * (conservative - 0.07)),
  buy_level_four: round2(price * (conservative - 0.1)),
});

async function flagged(levels: ReturnType<typeof plan>): Promise<Trader> {
  const trader = await createTrader([levels]);
  // The same switch the watchlist's Recs toggle sets.
  for (const row of await watchlistOf(trader)) {
    const res = await providerCall(trader.providerUrl, calls.updateUserStock, {
      token: trader.token,
      params: { id: row.id },
      body: { generate_recommendation: true },
    });
    expect(res.status).toBe(200);
  }
  return trader;
}

/** Every strike the trader's /insights shows for the stock, date chip by date chip, in order. */
async function strikesOnScreen(page: Page, trader: Trader): Promise<string[]> {
  await page.goto(`/insights?open=${TICKER}`);
  const stock = card(page, TICKER);
  const chips = stock.locator(".ins-dates a");
  const shown: string[] = [];
  const count = await chips.count();
  if (count === 0) return stock.getByTestId("option-card").getByTestId("strike").allTextContents();
  for (let i = 0; i < count; i++) {
    await chips.nth(i).click();
    await expect(chips.nth(i)).toHaveAttribute("aria-current", "true");
    shown.push(...(await shownStrikes(stock)));
  }
  expect(trader.username).toBeTruthy();
  return shown;
}

const keys = (rows: TradeRecommendation[]) =>
  rows.map((r) => `${r.expiration_date} $${fixed(r.strike_price)} #${r.rank}`);

test("each trader sees only strikes at or below their own conservative value, whoever generated last", async ({
  browser,
}) => {
  // The price the plans are written against: one generation by a third trader.
  const probe = await flaggedTrader([TICKER]);
  expect((await generateAs(probe, TICKER)).status).toBe(200);
  const price = (await topLineOf(probe)).find((t) => t.ticker === TICKER)!.current_price;

  const a = await flagged(plan(price, 0.95));
  const b = await flagged(plan(price, 0.9));
  const consA = round2(price * 0.95);
  const consB = round2(price * 0.9);

  // A generates last.
  expect((await generateAs(a, TICKER)).status).toBe(200);
  const aFirst = await optionsOf(a, TICKER);
  const bFirst = await optionsOf(b, TICKER);
  followsPlan(aFirst, consA);
  followsPlan(bFirst, consB);

  const pageA = await (await browser.newContext()).newPage();
  const pageB = await (await browser.newContext()).newPage();
  await signInAs(pageA, a);
  await signInAs(pageB, b);
  const onScreenB = await strikesOnScreen(pageB, b);
  expect(onScreenB.length).toBeGreaterThan(0);
  for (const strike of onScreenB) {
    if (!bFirst[0]!.nearest_above_conservative) expect(Number(strike.replace(/[$,]/g, ""))).toBeLessThanOrEqual(consB);
  }
  if (bFirst[0]!.nearest_above_conservative) {
    await expect(card(pageB, TICKER).getByTestId("nearest-message")).toContainText(
      "at or below your conservative value",
    );
  }

  // Their plans differ, and so do their lists.
  expect(keys(aFirst)).not.toEqual(keys(bFirst));

  // Now B generates last. The simulated market has moved since A's run (it moves in real time while
  // the exchange is open and replays a session while it is closed), so the lists are not compared
  // with the first ones: in B's run each still follows its own reader's plan, A's is exactly that
  // of a trader with A's plan who never generated, and the two stay apart.
  const twinOfA = await flagged(plan(price, 0.95));
  expect((await generateAs(b, TICKER)).status).toBe(200);
  const aLast = await optionsOf(a, TICKER);
  const bLast = await optionsOf(b, TICKER);
  followsPlan(aLast, consA);
  followsPlan(bLast, consB);
  expect(keys(aLast)).toEqual(keys(await optionsOf(twinOfA, TICKER)));
  expect(keys(aLast)).not.toEqual(keys(bLast));
  const onScreenA = await strikesOnScreen(pageA, a);
  expect(onScreenA.length).toBeGreaterThan(0);
  if (!aLast[0]!.nearest_above_conservative)
    for (const strike of onScreenA) expect(Number(strike.replace(/[$,]/g, ""))).toBeLessThanOrEqual(consA);
  expect(onScreenA).not.toEqual(await strikesOnScreen(pageB, b));
});

/** Every strike at or below the conservative value, or else the one nearest above it, said so. */
function followsPlan(rows: TradeRecommendation[], conservative: number) {
  expect(rows.length).toBeGreaterThan(0);
  if (rows[0]!.nearest_above_conservative) expect(rows[0]!.strike_price).toBeGreaterThan(conservative);
  else for (const r of rows) expect(r.strike_price).toBeLessThanOrEqual(conservative);
}

test("the filter form works without JavaScript, keeps its values in the URL, and saves them as defaults", async ({
  browser,
}) => {
  const probe = await flaggedTrader([TICKER]);
  expect((await generateAs(probe, TICKER)).status).toBe(200);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInAs(page, probe);
  await page.goto(`/insights?open=${TICKER}`);
  await page.locator("summary", { hasText: "Your filters" }).click();
  await page.getByLabel("Only strikes at or below my conservative value").uncheck();
  await page.getByLabel("Commission per contract ($)").fill("1.25");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/commission=1\.25/);
  // Unticked, only the hidden 0 is sent.
  expect(new URL(page.url()).searchParams.getAll("at_or_below_conservative")).toEqual(["0"]);
  const basis = card(page, TICKER).getByTestId("net-basis").first();
  await expect(basis).toContainText("Net of $1.25 a contract");

  await page.locator("summary", { hasText: "Your filters" }).click();
  await page.getByRole("button", { name: "Save as my defaults" }).click();
  await expect(page.getByText("Saved as your default filters")).toBeVisible();
  // A plain /insights now uses the saved commission.
  await page.goto(`/insights?open=${TICKER}`);
  await expect(card(page, TICKER).getByTestId("net-basis").first()).toContainText("Net of $1.25 a contract");
  await context.close();
});
