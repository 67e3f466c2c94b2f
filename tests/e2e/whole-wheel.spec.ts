import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import * as calls from "#contract/calls.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { dayNumberOf, nyClock, nyInstant, previousTradingDay } from "#provider/market/calendar.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { createTrader, providerCall, signInAs, type Trader } from "./support/watchlist.ts";

/**
 * One whole wheel in the browser (issue 41), with nothing typed twice: a put taken from the
 * recommendations through its "Record this trade" link; the put expires in the money and resolves
 * itself into 100 shares at the strike with the adjusted basis; the covered-call screen lists calls
 * at or above that basis; one is recorded from its card; the ex-dividend alert fires on the call and
 * never on the put; the call expires in the money and the shares are called away; the cycle closes
 * with its return. The story is the same as provider/journal/whole-wheel.test.ts.
 *
 * Time is the market's (ADR 0091): the test provider's simulated KO market is moved day by day with
 * POST /clock, and the provider decides what is today, expired or in the future by it. Every date is
 * found from the market (its ex-dividend calendar, its listed expiries), none is written here. The
 * story runs months before the real date, so the Add Trade form's own check (not in the future by
 * the browser's clock) agrees with the provider's whatever day the suite runs.
 */
test.describe.configure({ timeout: 300_000 });
// Each step is a fresh page load from the server: no service worker answering from its cache.
test.use({ serviceWorkers: "block" });

const ports = ownPorts();
const providerPort = ports.provider[0]!;
const controlPort = ports.provider[1]!;
const appPort = ports.app[0]!;
const origin = `http://localhost:${appPort}`;
const providerUrl = `http://127.0.0.1:${providerPort}`;
const dataDir = tempDir("putseller-wheel-");
let provider: Started;
let app: Started;

test.beforeAll(async () => {
  // Starting servers (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  provider = await startNode(
    "tests/e2e/support/live-provider.ts",
    {
      PROVIDER_PORT: String(providerPort),
      CONTROL_PORT: String(controlPort),
      DATA_DIR: dataDir,
      PROVIDER_SECRET: "whole-wheel-provider-secret-0123456789abcd",
    },
    providerUrl,
  );
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_URL: providerUrl,
      SESSION_SECRET: "whole-wheel-session-secret-0123456789abcde",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATA_DIR: dataDir,
      COOKIE_SECURE: "false",
    },
    origin,
  );
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.stop();
});

/** Posts to the test provider's control server (tests/e2e/support/live-provider.ts). */
async function control(path: string, body: unknown): Promise<Response> {
  const response = await fetch(`http://127.0.0.1:${controlPort}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  expect(response.ok, await response.clone().text()).toBe(true);
  return response;
}
const DAY_MS = 86_400_000;
/** Moves the market's clock. */
const setClock = (at: Date) => control("/clock", { now: at.toISOString() });
/** Noon in New York on a trading day (the day itself, or the one before it). */
const noonOn = (day: number) => nyInstant(previousTradingDay(day), 12 * 60);
/** 17:30 in New York: after the day's close. */
const afterCloseOf = (date: string) => nyInstant(dayNumberOf(date), 17 * 60 + 30);
/** The last trading day before an ex-dividend day: when a call holder exercises for the dividend. */
const dayBefore = (date: string) => previousTradingDay(dayNumberOf(date) - 1);
async function nextExDividend(): Promise<{ date: string; amount: number }> {
  const facts = (await (await control("/facts", { ticker: "KO" })).json()) as {
    ex_dividend: { date: string; amount: number } | null;
  };
  expect(facts.ex_dividend, "the simulated KO pays dividends").not.toBeNull();
  return facts.ex_dividend!;
}
async function koPrice(): Promise<number> {
  return ((await (await control("/facts", { ticker: "KO" })).json()) as { price: number }).price;
}
/** Sets KO's quote (null: the simulated one) and runs the price job with its alerts. */
const setPrice = (price: number | null) => control("/price", { ticker: "KO", price });
/** KO's close on an expiry day, and the expiries resolved from it on the market's clock. */
const expireAt = (day: string, close: number) => control("/expiries", { day, closes: { KO: close } });

const dollars = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** "$6,000.00", as the journal writes an amount. */
const money = (value: number) => `$${dollars.format(value)}`;
const signedMoney = (value: number) => `${value < 0 ? "\u2212" : "+"}${money(Math.abs(value))}`;
/** The value of a figure on a journal card, by its term. */
const figure = (scope: Locator, term: string) =>
  scope
    .locator(".journal-figure")
    .filter({ has: scope.page().getByText(term, { exact: true }) })
    .locator("dd");
const form = (page: Page) => page.getByRole("dialog", { name: "Add Options Trade" });
const field = (page: Page, label: string) => form(page).getByLabel(label, { exact: true });

test("a whole wheel on the demo market: put, shares at the adjusted basis, a covered call, the ex-dividend alert, called away", async ({
  page,
}) => {
  // The story starts 260 days before today; its last step (the call's expiry) comes under 240 days
  // later: two ex-dividend days a quarter apart, each with an option of at most 45 days around it.
  const start = nyClock(new Date(Date.now() - 260 * DAY_MS)).dayNumber;
  await setClock(noonOn(start + 25));
  // The first ex-dividend day the put lives through, and the put sold two weeks before it.
  const firstExDividend = await nextExDividend();
  await setClock(noonOn(dayNumberOf(firstExDividend.date) - 14));
  const spot = await koPrice();

  // A trader with KO on the watchlist, recommendations on, and filters wide enough for the simulated chain.
  const trader = await createTrader(
    [
      {
        ticker: "KO",
        base_iv: 80,
        conservative_iv: 75,
        buy_level_one: Math.round(spot * 1.02),
        buy_level_two: Math.round(spot),
        buy_level_three: Math.round(spot * 0.97),
        buy_level_four: Math.round(spot * 0.94),
      },
    ],
    providerUrl,
  );
  await recommendationsOn(trader);

  // 1. The put, taken from the recommendations: the first one expiring after the ex-dividend day.
  await signInAs(page, trader, origin);
  await page.goto(`${origin}/insights`);
  const ko = page.locator('li.ins-card[data-ticker="KO"]');
  await ko.getByRole("link", { name: "Expand KO" }).click();
  const puts = await providerCall<TradeRecommendation[]>(providerUrl, calls.tradeRecommendations, {
    token: trader.token,
    params: { symbol: "KO" },
  });
  const expiry = [...new Set(puts.body.map((p) => p.expiration_date))].sort().find((d) => d > firstExDividend.date);
  expect(expiry, JSON.stringify(puts.body.map((p) => p.expiration_date))).toBeDefined();
  await ko
    .getByRole("navigation", { name: "KO expiration dates" })
    .getByRole("link", { name: longDate(expiry!) })
    .click();
  await expect(page).toHaveURL(new RegExp(`date=${expiry}`));
  await ko.getByTestId("option-card").first().click();
  await page.getByRole("dialog", { name: "Sell Put Options" }).getByRole("link", { name: "Record this trade" }).click();
  await expect(form(page)).toBeVisible();
  await expect(field(page, "Expiry")).toHaveValue(expiry!);
  const putStrike = Number(await field(page, "Strike").inputValue());
  const putPremium = Number(await field(page, "Premium per share").inputValue());
  expect(putPremium).toBeGreaterThan(0);
  // The one value the recommendation cannot know: what the broker charged.
  await field(page, "Fees (commission and fees, $)").fill("0.65");
  await form(page).getByRole("button", { name: "Save trade" }).click();
  await expect(page).toHaveURL(/\/portfolio/);
  const put = page.getByRole("listitem", { name: new RegExp(`^Short KO ${putStrike} put`) });
  await expect(put).toBeVisible();

  // The day before the ex-dividend day, KO under the strike: the put's alerts come, never the ex-dividend one.
  await setClock(nyInstant(dayBefore(firstExDividend.date), 11 * 60));
  await setPrice(putStrike - 3);
  await page.reload();
  const putAlerts = put.getByRole("list", { name: "Alerts" });
  await expect(putAlerts.getByText("Through the strike")).toBeVisible();
  await expect(putAlerts.getByText("Ex-dividend: early assignment risk")).toHaveCount(0);

  // 2. Expiry in the money (KO closes $2 under the strike): 100 shares at the strike, the adjusted basis.
  await setPrice(null);
  await setClock(afterCloseOf(expiry!));
  await expireAt(expiry!, putStrike - 2);
  const basis = putStrike - (putPremium * 100 - 0.65) / 100;
  await page.goto(`${origin}/portfolio?period=all`);
  const shares = page.getByRole("listitem", { name: "KO shares" });
  await expect(shares).toContainText("100 shares of KO");
  await expect(figure(shares, "Average cost per share")).toHaveText(money(putStrike));
  await expect(figure(shares, "Adjusted cost basis per share (net of the cycle's premiums and fees)")).toHaveText(
    money(basis),
  );
  await expect(page.getByRole("listitem", { name: /^Short KO .* put/ })).toHaveCount(0);

  // 3. Two weeks before the next ex-dividend day: the covered-call screen, calls living through it.
  const secondExDividend = await nextExDividend();
  expect(secondExDividend.date > expiry!).toBe(true);
  const callDay = previousTradingDay(dayNumberOf(secondExDividend.date) - 14);
  await setClock(nyInstant(callDay, 12 * 60));
  const untilExDividend = dayNumberOf(secondExDividend.date) - callDay;
  await page.goto(`${origin}/insights/calls`);
  await expect(page.getByTestId("holding").filter({ hasText: "100 shares of KO" })).toBeVisible();
  // The calls expiring on or after the ex-dividend day, as the screen's own filters put it in the address.
  await page.goto(
    `${origin}/insights/calls?delta_min=0.05&delta_max=0.5&dte_min=${untilExDividend}&dte_max=45&min_open_interest=0&skip_earnings=0`,
  );
  const holding = page.getByTestId("holding").filter({ hasText: "100 shares of KO" });
  await expect(holding.getByTestId("adjusted-basis")).toHaveText(money(basis));
  await expect(holding.getByTestId("contracts-available")).toHaveText("1 contract");
  const cards = holding.getByTestId("call-card");
  await expect(cards.first()).toBeVisible();
  for (const strike of await cards.getByTestId("strike").allTextContents()) {
    expect(Number(strike.replace("$", ""))).toBeGreaterThanOrEqual(basis);
  }
  const first = cards.first();
  for (const label of [
    "Premium (bid)",
    "Mid",
    `If called away (on ${money(basis)} basis), monthly, net`,
    "Chance of being called (risk-neutral)",
  ]) {
    await expect(first.getByText(label, { exact: true })).toBeVisible();
  }

  // 4. Recorded from its card, at its bid.
  await first.getByRole("link", { name: /^Record this trade/ }).click();
  await expect(form(page)).toBeVisible();
  await expect(
    form(page).getByRole("group", { name: "Put or call" }).getByRole("radio", { name: "Call" }),
  ).toBeChecked();
  const callStrike = Number(await field(page, "Strike").inputValue());
  const callExpiry = await field(page, "Expiry").inputValue();
  const callPremium = Number(await field(page, "Premium per share").inputValue());
  expect(callStrike).toBeGreaterThanOrEqual(basis);
  expect(callExpiry >= secondExDividend.date).toBe(true);
  await field(page, "Fees (commission and fees, $)").fill("0.65");
  await form(page).getByRole("button", { name: "Save trade" }).click();
  await expect(page).toHaveURL(/\/portfolio/);
  const call = page.getByRole("listitem", { name: new RegExp(`^Short KO ${callStrike} call`) });
  await expect(call).toBeVisible();

  // 5. The trading day before the ex-dividend day, KO quoted $5 above the strike and the chain: the
  // call's time value (its mid less the intrinsic value) is below the dividend, and the alert fires on it.
  await setClock(nyInstant(dayBefore(secondExDividend.date), 11 * 60));
  await setPrice(Math.max(callStrike, await koPrice()) + 5);
  await page.reload();
  await expect(
    call.getByRole("list", { name: "Alerts" }).getByText("Ex-dividend: early assignment risk"),
  ).toBeVisible();
  await page.goto(`${origin}/profile?panel=notifications`);
  await expect(
    page
      .getByRole("dialog")
      .getByText(`KO goes ex-dividend on ${secondExDividend.date}: your KO ${callStrike} call may be assigned early`),
  ).toBeVisible();

  // 6. Expiry in the money (KO closes $3 above the strike): the shares are called away.
  await setPrice(null);
  await setClock(afterCloseOf(callExpiry));
  await expireAt(callExpiry, callStrike + 3);

  // 7. The cycle is closed, with its return.
  await page.goto(`${origin}/portfolio?period=all`);
  await expect(page.getByRole("listitem", { name: "KO shares" })).toHaveCount(0);
  await expect(page.getByRole("listitem", { name: /^Short KO / })).toHaveCount(0);
  const cycle = page.getByRole("listitem", { name: /^KO cycle from / });
  await expect(cycle.locator(".journal-row__status").first()).toHaveText("Closed");
  const pnl = putPremium * 100 - 0.65 + (callPremium * 100 - 0.65) + (callStrike - putStrike) * 100;
  await expect(figure(cycle, "Realised P/L (net of fees)")).toHaveText(signedMoney(pnl));
  await expect(figure(cycle, "Capital (most cash tied up at once)")).toHaveText(money(putStrike * 100));
  // P/L ÷ capital, which the journal sends to four places (0.0540) and the card writes as a percentage.
  const returnOnCapital = Math.round((pnl / (putStrike * 100)) * 10_000) / 10_000;
  await expect(figure(cycle, "Return on capital")).toHaveText(`${(returnOnCapital * 100).toFixed(2)}%`);
  await expect(figure(cycle, "Annualised return on collateral-days")).toHaveText(/^\d+\.\d{2}%$/);
  const steps = cycle.getByRole("list", { name: "Step by step" }).getByRole("listitem");
  await expect(steps).toHaveText([
    new RegExp(`Sold 1 contract of the ${putStrike} put at ${escape(money(putPremium))}`),
    new RegExp(
      `Assigned: 100 shares at the strike ${escape(money(putStrike))}.*adjusted basis ${escape(money(basis))}`,
    ),
    new RegExp(`Sold 1 contract of the ${callStrike} call at ${escape(money(callPremium))}`),
    new RegExp(`Called away: 100 shares at the strike ${escape(money(callStrike))} · no shares left`),
  ]);
});

/** KO's recommendations on, under filters wide enough for the simulated chain, generated now. */
async function recommendationsOn(trader: Trader) {
  const [row] = (
    await providerCall<{ id: number }[]>(providerUrl, calls.listUserStocks, {
      token: trader.token,
      params: { userId: trader.id },
    })
  ).body;
  const flagged = await providerCall(providerUrl, calls.updateUserStock, {
    token: trader.token,
    params: { id: row!.id },
    body: { generate_recommendation: true },
  });
  expect(flagged.status, JSON.stringify(flagged.body)).toBe(200);
  const filters = await providerCall(providerUrl, calls.saveTraderFilters, {
    token: trader.token,
    body: {
      at_or_below_conservative: false,
      delta_min: 0.05,
      delta_max: 0.5,
      dte_min: 5,
      dte_max: 45,
      min_bid: 0.05,
      min_open_interest: 0,
      max_spread: 0.5,
      skip_earnings: false,
      commission: 0.65,
    },
  });
  expect(filters.status, JSON.stringify(filters.body)).toBe(200);
  const generated = await providerCall(providerUrl, calls.generateRecommendations, {
    token: trader.token,
    params: { ticker: "KO" },
  });
  expect(generated.status, JSON.stringify(generated.body)).toBe(200);
}

/** "2026-11-27" → "27 Nov 2026", as the date chips name an expiry. */
const longDate = (date: string) =>
  new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\$]/g, "\\$&");
