import { expect, test } from "./support/test.ts";
import { startPushReceiver, type PushReceiver } from "../support/push-receiver.ts";
import { ownPorts } from "./support/ports.ts";
import { providerToken, turnPushOn } from "./support/push.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { dayNumberOf, isoDateOf, previousTradingDay } from "#provider/market/calendar.ts";

/**
 * Alerts on open short puts end to end (docs/product.md#alerts-positions): the demo trader turns
 * push on, records a short put through the trades API, the simulated market's price falls through
 * the strike and the real price job runs (tests/e2e/support/live-provider.ts); the alert reaches
 * the push service (tests/support/push-receiver.ts checks VAPID and decrypts it) and the service
 * worker, the notifications panel lists it, the position carries its badge, and a further move
 * sends nothing again. The thresholds form on /profile keeps a refused value and says why. An
 * expired put is resolved from the day's close (ADR 0078): assigned automatically, undone from
 * Trades, and not recorded again.
 */
test.describe.configure({ timeout: 120_000 });

const ports = ownPorts();
const providerPort = ports.provider[0]!;
const controlPort = ports.provider[1]!;
const appPort = ports.app[0]!;
const origin = `http://localhost:${appPort}`;
const providerUrl = `http://127.0.0.1:${providerPort}`;
const dataDir = tempDir("putseller-alerts-");
let receiver: PushReceiver;
let provider: Started;
let app: Started;

test.beforeAll(async () => {
  // Starting servers (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  receiver = await startPushReceiver();
  provider = await startNode(
    "tests/e2e/support/live-provider.ts",
    {
      PROVIDER_PORT: String(providerPort),
      CONTROL_PORT: String(controlPort),
      DATA_DIR: dataDir,
      PROVIDER_SECRET: "position-alerts-provider-secret-0123456789",
      NODE_EXTRA_CA_CERTS: receiver.certificateFile,
      PUSH_ALLOWED_HOSTS: "localhost",
    },
    providerUrl,
  );
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_URL: providerUrl,
      SESSION_SECRET: "position-alerts-session-secret-0123456789a",
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
  await receiver?.close();
});

/** The test market's clock, which the provider decides what is today by (ADR 0091). */
async function marketNow(): Promise<Date> {
  const status = (await (await fetch(`${providerUrl}/api/market-status`)).json()) as { now: string };
  return new Date(status.now);
}

/** A Friday four to five weeks ahead of `now` (the trading day before it when the exchange is closed): the put's expiry. */
function expiryAhead(now: Date): string {
  const day = new Date(now.getTime() + 28 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((5 - day.getUTCDay() + 7) % 7));
  return isoDateOf(previousTradingDay(dayNumberOf(day.toISOString().slice(0, 10))));
}

async function setPrice(ticker: string, price: number) {
  const response = await fetch(`http://127.0.0.1:${controlPort}/price`, {
    method: "POST",
    body: JSON.stringify({ ticker, price }),
  });
  expect(response.status, await response.text()).toBe(204);
}

test("a price through the strike of an open short put alerts once: push, notifications panel and a badge", async ({
  page,
}) => {
  const subscription = receiver.subscribe();
  await turnPushOn(page, origin, subscription);
  const now = await marketNow();
  const expiry = expiryAhead(now);
  // Other events (an earnings date the simulated calendar puts near) may alert too; this test follows the strike.
  const strikePushes = () =>
    receiver.received
      .filter((p) => p.subscriptionId === subscription.id)
      .map((p) => JSON.parse(p.text) as { type: string; title: string; body: string; url: string })
      .filter((m) => m.title.includes("strike"));

  // AAPL at $200, then a short 190 put: 5.3% above the strike, outside the default 3%.
  await setPrice("AAPL", 200);
  const token = await providerToken(providerUrl, "demo", "demo1234");
  const recorded = await fetch(`${providerUrl}/api/trades`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      kind: "sell_to_open",
      ticker: "AAPL",
      option_type: "put",
      strike: 190,
      expiry,
      quantity: 1,
      price: 3.2,
      fees: 0.65,
      traded_at: new Date(now.getTime() - 60_000).toISOString(),
    }),
  });
  expect(recorded.status, await recorded.text()).toBe(200);
  await setPrice("AAPL", 201);
  expect(strikePushes()).toEqual([]);

  // The stock falls through the strike; the price job raises the alert.
  await setPrice("AAPL", 185.5);
  expect(strikePushes()).toEqual([
    {
      type: "alert",
      title: "AAPL went through your AAPL 190 put's strike",
      body: `AAPL is at $185.50, $4.50 below the $190.00 strike of your put expiring ${expiry}: the put is in the money.`,
      url: "/portfolio",
      notification_id: expect.any(Number),
    },
  ]);
  const message = strikePushes()[0]!;
  const push = receiver.received.find((p) => p.subscriptionId === subscription.id && p.text.includes(message.title))!;

  // The service worker shows it.
  const cdp = await page.context().newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => registrations.push(...event.registrations));
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrations.some((r) => r.scopeURL.startsWith(origin) && !r.isDeleted)).toBe(true);
  const registrationId = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted)!.registrationId;
  await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: push.text });
  await expect(page.getByText(message.body).first()).toBeVisible();

  // The notifications panel lists it.
  await page.goto(`${origin}/profile?panel=notifications`);
  await expect(page.getByRole("dialog").getByText("AAPL went through your AAPL 190 put's strike")).toBeVisible();

  // The position carries a badge in words.
  await page.goto(`${origin}/portfolio`);
  const position = page.getByRole("listitem", { name: /^Short AAPL 190 put/ });
  await expect(position.getByRole("list", { name: "Alerts" }).getByText("Through the strike")).toBeVisible();

  // Further down: nothing is sent again for the same position and event.
  await setPrice("AAPL", 184);
  expect(strikePushes().map((m) => m.title)).toEqual([message.title]);
});

test("the alert thresholds on /profile are saved, and a refused value is kept with its reason", async ({ page }) => {
  await page.goto(`${origin}/login`);
  await page.getByLabel("Username").fill("demo");
  await page.getByLabel("Password").fill("demo1234");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/user-stocks$/);
  await page.goto(`${origin}/profile`);
  const card = page.getByRole("region", { name: "Position Alerts" });
  const profit = card.getByLabel("Profit taken, % of the maximum");
  await expect(profit).toHaveValue("50");
  await expect(card.getByLabel("Stock within % of the strike")).toHaveValue("3");
  await expect(card.getByLabel("Earnings within trading days before expiry")).toHaveValue("2");

  await profit.fill("150");
  await card.getByRole("button", { name: "Save alert settings" }).click();
  await expect(card.getByText("Profit taken must be at most 100%")).toBeVisible();
  await expect(profit).toHaveValue("150");

  await profit.fill("65");
  await card.getByLabel("Stock within % of the strike").fill("7");
  await card.getByRole("button", { name: "Save alert settings" }).click();
  await expect(page.getByText("Alert settings saved")).toBeVisible();
  await page.reload();
  await expect(card.getByLabel("Profit taken, % of the maximum")).toHaveValue("65");
  await expect(card.getByLabel("Stock within % of the strike")).toHaveValue("7");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the thresholds form answers a refused value with 400, its reason and the typed values", async ({ page }) => {
    await page.goto(`${origin}/login`);
    await page.getByLabel("Username").fill("demo");
    await page.getByLabel("Password").fill("demo1234");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/user-stocks$/);
    await page.goto(`${origin}/profile`);
    const card = page.getByRole("region", { name: "Position Alerts" });
    // The browser's own range check would stop the post; the server must refuse it too.
    await card.locator("form").evaluate((form) => form.setAttribute("novalidate", ""));
    await card.getByLabel("Earnings within trading days before expiry").fill("30");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/profile")),
      card.getByRole("button", { name: "Save alert settings" }).click(),
    ]);
    expect(response.status()).toBe(400);
    await expect(card.getByText("Trading days before earnings must be at most 20")).toBeVisible();
    await expect(card.getByLabel("Earnings within trading days before expiry")).toHaveValue("30");

    await card.locator("form").evaluate((form) => form.setAttribute("novalidate", ""));
    await card.getByLabel("Earnings within trading days before expiry").fill("4");
    await card.getByRole("button", { name: "Save alert settings" }).click();
    await expect(page).toHaveURL(/\/profile/);
    await expect(card.getByLabel("Earnings within trading days before expiry")).toHaveValue("4");
  });
});

test("an expired put in the money is assigned automatically, and undone from Trades it is not recorded again", async ({
  page,
}) => {
  const token = await providerToken(providerUrl, "demo", "demo1234");
  // A KO 70 put sold on 2 Nov, expired Friday 20 Nov 2026 with KO closing at $66.00: assigned.
  const recorded = await fetch(`${providerUrl}/api/trades`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      kind: "sell_to_open",
      ticker: "KO",
      option_type: "put",
      strike: 70,
      expiry: "2026-11-20",
      quantity: 1,
      price: 1.1,
      fees: 0.65,
      traded_at: "2026-11-02T15:00:00.000Z",
    }),
  });
  expect(recorded.status, await recorded.text()).toBe(200);
  const resolve = async () => {
    const response = await fetch(`http://127.0.0.1:${controlPort}/expiries`, {
      method: "POST",
      body: JSON.stringify({ day: "2026-11-20", closes: { KO: 66 } }),
    });
    expect(response.status, await response.text()).toBe(204);
  };
  // The market's clock moved past that Friday's close: the put has expired.
  const moved = await fetch(`http://127.0.0.1:${controlPort}/clock`, {
    method: "POST",
    body: JSON.stringify({ now: "2026-11-23T15:00:00.000Z" }),
  });
  expect(moved.status, await moved.text()).toBe(204);
  await resolve();

  await page.goto(`${origin}/login`);
  await page.getByLabel("Username").fill("demo");
  await page.getByLabel("Password").fill("demo1234");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/user-stocks$/);
  await page.goto(`${origin}/profile?panel=notifications`);
  await expect(
    page.getByRole("dialog").getByText("KO 70 put assigned: 100 shares bought at $70.00, recorded automatically"),
  ).toBeVisible();

  await page.goto(`${origin}/portfolio?period=all`);
  const assigned = page.getByRole("list", { name: "Trades" }).getByRole("listitem").filter({ hasText: "Assigned" });
  await expect(assigned).toContainText("Recorded automatically from the expiry day's close");
  await expect(page.getByRole("listitem", { name: "KO shares" })).toContainText("100 shares of KO");
  await assigned.getByRole("button", { name: /^Undo Assigned KO of / }).click();
  await expect(page.getByText("Trade deleted").first()).toBeVisible();
  const put = page.getByRole("listitem", { name: /^Short KO 70 put/ });
  await expect(put).toContainText("Expired: awaiting resolution");
  await expect(page.getByRole("listitem", { name: "KO shares" })).toHaveCount(0);

  // The next run leaves the trader's word alone.
  await resolve();
  await page.reload();
  await expect(page.getByRole("listitem", { name: /^Short KO 70 put/ })).toContainText("Expired: awaiting resolution");
});
