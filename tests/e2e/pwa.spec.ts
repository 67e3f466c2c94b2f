import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import * as calls from "#contract/calls.ts";
import { chromiumArgs } from "../../playwright.config.ts";
import { embeddedProviderUrl } from "./support/ports.ts";
import {
  createTrader,
  expectToast,
  listReady,
  providerCall,
  recordToasts,
  row,
  shownTickers,
  signInAs,
  watchlistOf,
} from "./support/watchlist.ts";

/**
 * The installable app on flaky networks (issue 11), in the real build with its service worker:
 * Chromium's installability checks, screens read offline from saved copies, changes made offline
 * kept in the outbox and sent once when the connection returns (also when an answer is lost in
 * transit), and sign-out forgetting what was saved. The update prompt has its own spec
 * (pwa-update.spec.ts), which swaps the worker file.
 */
test.describe.configure({ timeout: 90_000 });

/** The app's worker controls the page (first visit: it installs, precaches, then takes over). */
async function workerInControl(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, { timeout: 30_000 });
}

/** Offline as a phone in a tunnel: the page, its worker and their requests. */
async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

async function goOnline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(false);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(true);
}

const offlineBar = (page: Page) => page.locator(".offline-status");

/** Waits until the worker has kept the page at `path` (a screen reached inside the app is fetched as a page in the background). */
async function pageKept(page: Page, path: string): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async (path) => {
        for (const name of await caches.keys()) {
          if (!name.startsWith("saved-screens-")) continue;
          if (await (await caches.open(name)).match(new URL(path, location.origin).href)) return true;
        }
        return false;
      }, path),
    )
    .toBe(true);
}

/** Width and height from a PNG's IHDR, after checking its data inflates. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("ascii")).toBe("PNG");
  const idat = bytes.indexOf("IDAT");
  expect(idat).toBeGreaterThan(0);
  const length = bytes.readUInt32BE(idat - 4);
  expect(inflateSync(bytes.subarray(idat + 4, idat + 4 + length)).length).toBeGreaterThan(0);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test("installable: a manifest with start URL, standalone display, colours and icons; Chromium finds no installability error", async ({
  request,
  baseURL,
}) => {
  // Test contexts are incognito, where Chromium never offers to install: a profile on disk is used.
  const profile = mkdtempSync(path.join(tmpdir(), "putseller-install-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: chromiumArgs,
    baseURL,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto("/login");
    await workerInControl(page);

    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(manifestHref).toBe("/manifest.webmanifest");
    const res = await request.get(manifestHref!);
    expect(res.status()).toBe(200);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      short_name: "PutSeller",
      start_url: "/user-stocks",
      display: "standalone",
      theme_color: "#0b1220",
      background_color: "#0b1220",
    });
    expect(manifest.name).toContain("PutSeller");
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual([
      "192x192 any",
      "192x192 maskable",
      "512x512 any",
      "512x512 maskable",
    ]);
    for (const icon of manifest.icons) {
      const file = await request.get(icon.src);
      expect(file.status()).toBe(200);
      expect(file.headers()["content-type"]).toBe("image/png");
      const [w, h] = icon.sizes.split("x").map(Number);
      expect(pngSize(await file.body())).toEqual({ width: w, height: h });
    }
    const appleHref = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
    const apple = await request.get(appleHref!);
    expect(pngSize(await apple.body())).toEqual({ width: 180, height: 180 });

    const cdp = await context.newCDPSession(page);
    const { url, errors } = await cdp.send("Page.getAppManifest");
    expect(url).toMatch(/\/manifest\.webmanifest$/);
    expect(errors).toEqual([]);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test("the watchlist opens offline after one online visit, saying it is offline and how old the data is", async ({
  page,
  context,
}) => {
  const trader = await createTrader(["AAPL", "KO"]);
  // The app was opened once (its worker installed), then the user signed in and saw the list.
  await page.goto("/login");
  await workerInControl(page);
  await signInAs(page, trader);
  await expect(row(page, "KO")).toBeVisible();
  await expect(offlineBar(page)).toHaveCount(0);

  await goOffline(context, page);
  await page.reload();
  await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
  await expect(row(page, "AAPL")).toBeVisible();
  await expect(row(page, "KO")).toBeVisible();
  await expect(offlineBar(page)).toHaveText(/^You are offline\. Showing data saved \d+ seconds? ago\.$/);
  await listReady(page);
  // The list's own state in the URL (a search) needs no other copy.
  await page.goto("/user-stocks?q=ko");
  await listReady(page);
  await expect(page.getByRole("searchbox")).toHaveValue("ko");
  await expect(row(page, "KO")).toBeVisible();
  await expect(row(page, "AAPL")).toHaveCount(0);

  // A screen never opened online says so, and leads back.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Profile" }).click();
  await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();
  await expect(page.getByText("This screen has not been saved on this device yet.")).toBeVisible();
  await page.getByRole("link", { name: "Open the watchlist" }).click();
  await expect(row(page, "KO")).toBeVisible();

  // Back online: the list is fresh again and the bar goes.
  await goOnline(context, page);
  await page.reload();
  await expect(row(page, "KO")).toBeVisible();
  await expect(offlineBar(page)).toHaveCount(0);
});

test("on a slow connection the watchlist shows its saved copy after a short wait, then the fresh list when it comes", async ({
  page,
  context,
}) => {
  const trader = await createTrader(["AAPL", "KO"]);
  await page.goto("/login");
  await workerInControl(page);
  await signInAs(page, trader);
  await listReady(page);
  // Meanwhile a row is added elsewhere (another device).
  await providerCall(trader.providerUrl, calls.createUserStock, {
    token: trader.token,
    params: { userId: trader.id },
    body: {
      base_iv: 1,
      conservative_iv: 1,
      buy_level_one: 1,
      buy_level_two: 1,
      buy_level_three: 1,
      buy_level_four: 1,
      stock: { ticker: "MSFT", name: "", current_price: 0 },
    },
  });

  // The network holds the page until the saved copy is on screen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await context.route(/\/user-stocks$/, async (route) => {
    if (route.request().serviceWorker()) await held;
    await route.continue();
  });
  await page.reload();
  await expect(offlineBar(page)).toHaveText(/^The connection is slow\. Showing data saved \d+ seconds? ago\.$/, {
    timeout: 15_000,
  });
  await expect(row(page, "KO")).toBeVisible();
  await expect(row(page, "MSFT")).toHaveCount(0);

  release();
  await expect(row(page, "MSFT")).toBeVisible();
  await expect(offlineBar(page)).toHaveCount(0);
  await context.unrouteAll({ behavior: "wait" });
});

test("the profile and its notifications, opened inside the app, open offline too", async ({ page, context }) => {
  const trader = await createTrader([]);
  const admin = await providerCall<{ access_token: string }>(embeddedProviderUrl(), calls.login, {
    body: { username: "admin", password: "admin1234" },
  });
  const sent = await fetch(`${embeddedProviderUrl()}/api/admin/notifications`, {
    method: "POST",
    headers: { authorization: `Bearer ${admin.body.access_token}`, "content-type": "application/json" },
    body: JSON.stringify({
      user_ids: [trader.id],
      type: "alert",
      title: "KO reached your 1st buy level",
      body: "KO is at 60.00",
    }),
  });
  expect(sent.status).toBe(200);
  await page.goto("/login");
  await workerInControl(page);
  await signInAs(page, trader);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Profile" }).click();
  await page.getByRole("link", { name: "Open notifications" }).click();
  const panel = page.getByRole("dialog", { name: "Notifications" });
  await expect(panel.getByText("KO reached your 1st buy level")).toBeVisible();
  // Both screens were opened inside the app, so both are kept: Close (tapped before or after the
  // scripts run) leads to the plain profile.
  await pageKept(page, "/profile");
  await pageKept(page, "/profile?panel=notifications");

  await goOffline(context, page);
  await page.reload();
  await expect(panel.getByText("KO reached your 1st buy level")).toBeVisible();
  await expect(offlineBar(page)).toHaveText(/^You are offline\. Showing data saved \d+ (second|minute)s? ago\.$/);
  await panel.getByRole("link", { name: "Close" }).click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Account Information" })).toBeVisible();
});

test.describe("changes made offline", () => {
  test.beforeEach(async ({ page }) => {
    await recordToasts(page);
  });

  test("a toggle and an edit made offline wait, keep what was typed, and reach the provider once each when back online", async ({
    page,
    context,
  }) => {
    const trader = await createTrader(["AAPL", "KO"]);
    await page.goto("/login");
    await workerInControl(page);
    await signInAs(page, trader);
    await listReady(page);
    // The edit page was opened once online.
    await row(page, "AAPL").locator(".main").tap();
    await row(page, "AAPL").getByRole("link", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { name: "Edit Stock" })).toBeVisible();
    await page.getByRole("link", { name: "Close" }).click();
    await listReady(page);

    await goOffline(context, page);
    const toggle = row(page, "AAPL").getByRole("switch", { name: "Recommendations for AAPL" });
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await toggle.click();
    await expectToast(page, "Recommendations on for AAPL: saved on this device, and sent when you are back online.");
    await expect(offlineBar(page)).toContainText("You are offline.");
    await expect(offlineBar(page)).toContainText("1 change is waiting to be sent.");
    // The switch shows what the user chose while it waits.
    await expect(toggle).toHaveAttribute("aria-checked", "true");

    await row(page, "AAPL").locator(".main").tap();
    await row(page, "AAPL").getByRole("link", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { name: "Edit Stock" })).toBeVisible();
    await page.getByLabel("Base Value").fill("321.5");
    await page.getByLabel("1st buy level").fill("77");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Changes to AAPL: saved on this device, and sent when you are back online.");
    // Nothing typed is lost, and the page stays.
    await expect(page).toHaveURL(/\/user-stock\/AAPL$/);
    await expect(page.getByLabel("Base Value")).toHaveValue("321.5");
    await expect(page.getByLabel("1st buy level")).toHaveValue("77");
    await expect(offlineBar(page)).toContainText("2 changes are waiting to be sent.");
    // Retry while still offline: told so, nothing lost.
    await offlineBar(page).getByRole("button", { name: "Retry now" }).click();
    await expectToast(page, "Still offline: the waiting changes are sent when the connection returns.");
    await expect(offlineBar(page)).toContainText("2 changes are waiting to be sent.");

    // Saving again while it waits does not make a second change.
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Changes to AAPL: already waiting to be sent.");
    await expect(offlineBar(page)).toContainText("2 changes are waiting to be sent.");

    // The provider has seen nothing yet.
    const before = (await watchlistOf(trader)).find((r) => r.stock.ticker === "AAPL")!;
    expect(before.generate_recommendation).toBe(false);
    expect(before.base_iv).toBe(100);

    await goOnline(context, page);
    await expectToast(page, "Recommendation setting updated.");
    await expectToast(page, "AAPL updated successfully!");
    await expect(offlineBar(page)).toHaveCount(0);
    // Still on the edit page, the saved edit leads back to the list, as it does online; the list is fresh.
    await expect(page).toHaveURL(/\/user-stocks$/);
    await expect(row(page, "AAPL").getByRole("switch", { name: "Recommendations for AAPL" })).toHaveAttribute(
      "aria-checked",
      "true",
    );

    const after = await watchlistOf(trader);
    expect(after.map((r) => r.stock.ticker)).toEqual(["AAPL", "KO"]);
    const aapl = after.find((r) => r.stock.ticker === "AAPL")!;
    expect(aapl.generate_recommendation).toBe(true);
    expect(aapl.base_iv).toBe(321.5);
    expect(aapl.buy_level_one).toBe(77);
    expect(after.find((r) => r.stock.ticker === "KO")!.generate_recommendation).toBe(false);
    // One toast per change: each was applied once.
    const toasts = await page.evaluate(() => (window as unknown as { __toasts: { text: string }[] }).__toasts);
    expect(toasts.filter((t) => t.text === "Recommendation setting updated.")).toHaveLength(1);
    expect(toasts.filter((t) => t.text === "AAPL updated successfully!")).toHaveLength(1);
  });

  test("a new order and a delete made offline show as made, and are sent in that order when back online", async ({
    page,
    context,
  }) => {
    const trader = await createTrader(["AAPL", "MSFT", "KO"]);
    await page.goto("/login");
    await workerInControl(page);
    await signInAs(page, trader);
    await listReady(page);
    await page.evaluate(() => ((window as unknown as { __samePage?: boolean }).__samePage = true));

    await goOffline(context, page);
    await page.getByRole("link", { name: "Reorder" }).click();
    await page.getByRole("button", { name: "Move KO up" }).click();
    await page.getByRole("button", { name: "Move KO up" }).click();
    await page.getByRole("button", { name: "Finish Reorder" }).click();
    await expectToast(page, "New order of the watchlist: saved on this device, and sent when you are back online.");
    await expect(page.getByRole("button", { name: "Finish Reorder" })).toHaveCount(0);
    await expect.poll(() => shownTickers(page)).toEqual(["KO", "AAPL", "MSFT"]);

    await row(page, "AAPL").locator(".main").tap();
    await row(page, "AAPL").getByRole("link", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Delete AAPL from the watchlist: saved on this device, and sent when you are back online.");
    await expect.poll(() => shownTickers(page)).toEqual(["KO", "MSFT"]);
    await expect(offlineBar(page)).toContainText("2 changes are waiting to be sent.");
    // Each step stayed on the page (no reload from a saved copy), so the toast stays there to be read.
    await expect(page.getByText("Delete AAPL from the watchlist: saved on this device")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["AAPL", "MSFT", "KO"]);

    await goOnline(context, page);
    await expectToast(page, "Stocks reordered.");
    await expectToast(page, "AAPL deleted from Watchlist.");
    await expect(offlineBar(page)).toHaveCount(0);
    expect((await watchlistOf(trader)).map((r) => r.stock.ticker)).toEqual(["KO", "MSFT"]);
    await expect.poll(() => shownTickers(page)).toEqual(["KO", "MSFT"]);
    const toasts = await page.evaluate(() => (window as unknown as { __toasts: { text: string }[] }).__toasts);
    const results = toasts
      .map((t) => t.text)
      .filter((t) => t === "Stocks reordered." || t.endsWith("deleted from Watchlist."));
    expect(results).toEqual(["Stocks reordered.", "AAPL deleted from Watchlist."]);
  });

  test("a stock added while its answer is lost in transit is added once: the resend gets the first answer", async ({
    page,
    context,
  }) => {
    const trader = await createTrader(["KO"]);
    await page.goto("/login");
    await workerInControl(page);
    await signInAs(page, trader);
    await listReady(page);

    // The first send reaches the app (and the provider), then the connection drops before the answer.
    let cut = 0;
    await context.route(/\/add-user-stock\.data/, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      if (cut > 0) {
        // The worker resends as soon as it is online, which can answer before the page has read
        // the first reply (it then goes straight to the answer). Here the resend waits for it.
        await page
          .waitForFunction(() =>
            ((window as unknown as { __toasts?: { text: string }[] }).__toasts ?? []).some((t) =>
              t.text.includes("saved on this device"),
            ),
          )
          .catch(() => undefined);
        return route.continue();
      }
      cut += 1;
      await route.fetch();
      // The answer never reaches the browser: nor does the flash toast cookie it set.
      await context.clearCookies({ name: "__toast" });
      await route.abort("connectionreset");
    });
    await page.getByRole("link", { name: "Add stock" }).click();
    await page.getByLabel("Ticker Symbol").fill("MSFT");
    await page.getByLabel("Base Value").fill("500");
    await page.getByLabel("Cons Value").fill("400");
    await page.getByRole("button", { name: "Add Stock" }).click();
    await expectToast(page, "Add MSFT to the watchlist: saved on this device, and sent when you are back online.");
    expect(cut).toBe(1);

    // Online, it is sent again at once with the same key: the provider answers its first answer.
    await expectToast(page, "MSFT added!");
    await expect(offlineBar(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/user-stocks$/);
    await expect(row(page, "MSFT")).toBeVisible();
    const rows = await watchlistOf(trader);
    expect(rows.map((r) => r.stock.ticker)).toEqual(["KO", "MSFT"]);
    expect(rows.find((r) => r.stock.ticker === "MSFT")).toMatchObject({ base_iv: 500, conservative_iv: 400 });
    const toasts = await page.evaluate(() => (window as unknown as { __toasts: { text: string }[] }).__toasts);
    expect(toasts.map((t) => t.text)).not.toContain("MSFT is already in your watchlist");
  });
});

test("a form the outbox does not keep (Contact Support) says nothing was sent offline and keeps the message", async ({
  page,
  context,
}) => {
  await recordToasts(page);
  const trader = await createTrader([]);
  await page.goto("/login");
  await workerInControl(page);
  await signInAs(page, trader);
  await page.goto("/profile");
  await page.getByRole("link", { name: "Contact Support" }).click();
  const dialog = page.getByRole("dialog", { name: "Contact Support" });
  await expect(dialog).toBeVisible();

  await goOffline(context, page);
  await dialog.getByLabel("Subject").selectOption("technical");
  await dialog.getByLabel("Message").fill("The list does not load in the tunnel.");
  await dialog.getByRole("button", { name: "Submit Request" }).click();
  await expectToast(
    page,
    "You are offline: nothing was sent. What you entered is kept; try again when you are back online.",
  );
  await expect(dialog.getByLabel("Message")).toHaveValue("The list does not load in the tunnel.");
  await expect(dialog.getByLabel("Subject")).toHaveValue("technical");
  await expect(offlineBar(page)).toHaveText("You are offline.");

  await goOnline(context, page);
  await dialog.getByRole("button", { name: "Submit Request" }).click();
  await expectToast(page, "Support request submitted successfully!");
});

test("recommendations come from the network first; offline, a saved copy says it may be out of date", async ({
  page,
  context,
}) => {
  const trader = await createTrader(["AAPL"]);
  await page.goto("/login");
  await workerInControl(page);
  await signInAs(page, trader);
  const nav = page.getByRole("navigation", { name: "Main" });
  await page.goto("/insights");
  await expect(page.getByRole("heading", { name: "Recommendations" })).toBeVisible();
  await expect(offlineBar(page)).toHaveCount(0);

  await goOffline(context, page);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Recommendations" })).toBeVisible();
  await expect(offlineBar(page)).toHaveText(
    /^You are offline\. These recommendations were saved \d+ seconds? ago and may be out of date; fresh ones need a connection\.$/,
  );

  // Online again, with a copy saved, the worker still asks the network.
  await goOnline(context, page);
  await nav.getByRole("link", { name: "Watchlist" }).click();
  await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
  const asked: string[] = [];
  context.on("request", (request) => {
    if (request.serviceWorker() && /\/insights\.data/.test(request.url())) asked.push(request.url());
  });
  await nav.getByRole("link", { name: "Insights" }).click();
  await expect(page.getByRole("heading", { name: "Recommendations" })).toBeVisible();
  await expect.poll(() => asked.length).toBeGreaterThan(0);
  await expect(offlineBar(page)).toHaveCount(0);
});

test("changes waiting when the session has ended are not sent, and the user is told; the next sign-in keeps nothing of the last", async ({
  page,
  context,
}) => {
  await recordToasts(page);
  const first = await createTrader(["AAPL"]);
  const next = await createTrader(["KO"]);
  await page.goto("/login");
  await workerInControl(page);
  await signInAs(page, first);
  await listReady(page);
  // Reached inside the app: kept as data and, in the background, as a page.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "UIP" }).click();
  await pageKept(page, "/uip-stocks");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Watchlist" }).click();
  await listReady(page);

  await goOffline(context, page);
  await row(page, "AAPL").getByRole("switch", { name: "Recommendations for AAPL" }).click();
  await expect(offlineBar(page)).toContainText("1 change is waiting to be sent.");
  // The session ends meanwhile (it expired, or the browser dropped its cookies).
  await context.clearCookies();
  await goOnline(context, page);
  await expectToast(page, "Your session ended before this change was sent: Recommendations on for AAPL.");
  await expect(page).toHaveURL(/\/login/);
  expect((await watchlistOf(first))[0]!.generate_recommendation).toBe(false);

  await signInAs(page, next);
  await expect(row(page, "KO")).toBeVisible();
  const kept = await page.evaluate(async () => {
    const texts: { url: string; text: string }[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith("saved-screens-")) continue;
      const cache = await caches.open(name);
      for (const key of await cache.keys()) texts.push({ url: key.url, text: await (await cache.match(key))!.text() });
    }
    return texts;
  });
  expect(kept.filter((entry) => entry.text.includes("AAPL")).map((entry) => entry.url)).toEqual([]);
  expect(kept.map((entry) => new URL(entry.url).pathname)).not.toContain("/uip-stocks");
});

test("signing out forgets the saved screens and the outbox", async ({ page, context }) => {
  const trader = await createTrader(["AAPL"]);
  await page.goto("/login");
  await workerInControl(page);
  await signInAs(page, trader);
  await listReady(page);
  const savedEntries = () =>
    page.evaluate(async () => {
      let count = 0;
      for (const name of await caches.keys()) {
        if (name.startsWith("saved-screens-")) count += (await (await caches.open(name)).keys()).length;
      }
      return count;
    });
  await expect.poll(savedEntries).toBeGreaterThan(0);

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(savedEntries).toBe(0);

  await goOffline(context, page);
  await page.goto("/user-stocks").catch(() => undefined);
  await expect(page.getByText("This screen has not been saved on this device yet.")).toBeVisible();
  await expect(page.getByText("AAPL")).toHaveCount(0);
});

test("a session that ends without sign-out: the next visit, finding none, forgets the saved screens", async ({
  page,
  context,
}) => {
  const trader = await createTrader(["AAPL"]);
  await page.goto("/login");
  await workerInControl(page);
  await signInAs(page, trader);
  await listReady(page);
  const savedEntries = () =>
    page.evaluate(async () => {
      let count = 0;
      for (const name of await caches.keys()) {
        if (name.startsWith("saved-screens-")) count += (await (await caches.open(name)).keys()).length;
      }
      return count;
    });
  await expect.poll(savedEntries).toBeGreaterThan(0);
  // Still signed in: opening /login leads back to the list and forgets nothing.
  await page.goto("/login");
  await expect(page).toHaveURL(/\/user-stocks$/);
  await listReady(page);
  expect(await savedEntries()).toBeGreaterThan(0);

  // The cookie goes (expired, or the browser dropped it): no sign-out reached the server.
  await context.clearCookies({ name: "__session" });
  await page.goto("/user-stocks");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fuser-stocks$/);
  await expect.poll(savedEntries).toBe(0);

  await goOffline(context, page);
  await page.goto("/user-stocks").catch(() => undefined);
  await expect(page.getByText("This screen has not been saved on this device yet.")).toBeVisible();
  await expect(page.getByText("AAPL")).toHaveCount(0);
});
