import type { BrowserContext, Page } from "@playwright/test";
import { embeddedProviderUrl, workerAppUrl } from "./support/ports.ts";
import { expect, test } from "./support/test.ts";
import { holdScripts, waitForHydration } from "./support/hydration.ts";
import { signIn } from "./support/sign-in.ts";

/**
 * docs/product.md#screens-profile, #states-push, #states-admin, notifications panel, service-worker push.
 * Notifications are created the way the product creates them: through the provider
 * (an admin's POST /api/admin/notifications, which runs notifyUsers).
 */
const PROVIDER = embeddedProviderUrl();

async function apiUser(username: string, password: string) {
  const res = await fetch(`${PROVIDER}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }),
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  const me = (await (
    await fetch(`${PROVIDER}/auth/users/me`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as {
    id: number;
  };
  return { token, id: me.id };
}

async function notify(userId: number, notice: { type: string; title: string; body: string; url?: string }) {
  const admin = await apiUser("admin", "admin1234");
  const res = await fetch(`${PROVIDER}/api/admin/notifications`, {
    method: "POST",
    headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
    body: JSON.stringify({ user_ids: [userId], ...notice }),
  });
  expect(res.status).toBe(200);
}

async function clearNotifications(who: { token: string; id: number }) {
  await fetch(`${PROVIDER}/api/user-notifications/${who.id}/clear-all`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${who.token}` },
  });
}

function card(page: Page, title: string) {
  return page.getByRole("region", { name: title });
}

test.describe("profile page", () => {
  test("a trader sees the greeting, every card with the fixed values of docs/product.md#constants-display, and no System Settings", async ({
    page,
  }) => {
    await signIn(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Profile" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { level: 1, name: "Dana Demo" })).toBeVisible();

    const account = card(page, "Account Information");
    for (const [term, value] of [
      ["Member Since", "January 2024"],
      ["Account Type", "Premium Trader"],
      ["Trading Level", "Advanced"],
    ] as const) {
      await expect(account.getByText(term)).toBeVisible();
      await expect(account.getByText(value)).toBeVisible();
    }
    const prefs = card(page, "Trading Preferences");
    for (const value of ["Market Order", "Moderate", "$50,000"]) await expect(prefs.getByText(value)).toBeVisible();
    await expect(card(page, "Notifications").getByRole("switch", { name: "Push Notifications" })).toBeVisible();
    for (const name of ["Change Password", "Two-Factor Authentication", "Privacy Settings"]) {
      await expect(card(page, "Security").getByRole("button", { name })).toBeVisible();
    }
    await expect(card(page, "Help & Support").getByRole("link", { name: "Contact Support" })).toBeVisible();
    for (const name of ["FAQ & Help Center", "Trading Guide"]) {
      await expect(card(page, "Help & Support").getByRole("button", { name })).toBeVisible();
    }
    for (const name of ["View Statements", "Tax Documents", "Account Settings"]) {
      await expect(card(page, "Quick Actions").getByRole("button", { name })).toBeVisible();
    }
    await expect(card(page, "System Settings")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Open notifications" })).toBeVisible();

    // A placeholder says it is coming soon in place, without leaving the page.
    await waitForHydration(page);
    await card(page, "Quick Actions").getByRole("button", { name: "Tax Documents" }).click();
    await expect(page.getByText("Tax Documents is coming soon.")).toBeVisible();
    await expect(page).toHaveURL(/\/profile$/);
  });

  test("Logout on the profile ends the session with the message of docs/product.md#screens-profile and clears local storage", async ({
    page,
  }) => {
    await signIn(page);
    await page.goto("/profile");
    await page.evaluate(() => localStorage.setItem("profileImage", "data:image/png;base64,AAAA"));
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("You have been logged out successfully.")).toBeVisible();
    // The message is in the server's HTML; the storage is cleared once the page's scripts run.
    await expect.poll(() => page.evaluate(() => localStorage.length)).toBe(0);
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login/);
  });

  test("the profile photo accepts image files only and is kept in this browser", async ({ page }) => {
    await signIn(page);
    await page.goto("/profile");
    // The picker is read by the page's scripts, which run after the first paint (ADR 0044).
    await waitForHydration(page);
    const picker = page.getByLabel("Change profile photo");
    await picker.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") });
    await expect(page.getByText("Please choose an image file for your profile photo.")).toBeVisible();
    await expect(page.getByRole("img", { name: "Your profile photo" })).toHaveCount(0);

    const png = Buffer.from(
      await page.evaluate(() => {
        const canvas = document.createElement("canvas");
        canvas.width = 400;
        canvas.height = 300;
        const ctx = canvas.getContext("2d")!;
        ctx.fillStyle = "#3b82f6";
        ctx.fillRect(0, 0, 400, 300);
        return canvas.toDataURL("image/png").split(",")[1]!;
      }),
      "base64",
    );
    await picker.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
    await expect(page.getByRole("img", { name: "Your profile photo" })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("profileImage"))).toMatch(/^data:image\/jpeg;base64,/);
    await page.reload();
    await expect(page.getByRole("img", { name: "Your profile photo" })).toBeVisible();
  });

  test("a photo chosen before the page's scripts ran is taken once they run", async ({ browser }) => {
    // No service worker: it would answer the scripts from its cache, past holdScripts.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await signIn(page);
    const png = Buffer.from(
      await page.evaluate(() => {
        const canvas = document.createElement("canvas");
        canvas.width = 120;
        canvas.height = 90;
        canvas.getContext("2d")!.fillRect(0, 0, 120, 90);
        return canvas.toDataURL("image/png").split(",")[1]!;
      }),
      "base64",
    );
    const release = await holdScripts(page);
    await page.goto("/profile", { waitUntil: "domcontentloaded" });
    await page.getByLabel("Change profile photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
    await expect(page.getByRole("img", { name: "Your profile photo" })).toHaveCount(0);
    release();
    await expect(page.getByRole("img", { name: "Your profile photo" })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("profileImage"))).toMatch(/^data:image\/jpeg;base64,/);
    await context.close();
  });

  test("Contact Support: subject and message are required; a submission takes about a second and says so", async ({
    page,
  }) => {
    await signIn(page);
    await page.goto("/profile");
    await card(page, "Help & Support").getByRole("link", { name: "Contact Support" }).click();
    const dialog = page.getByRole("dialog", { name: "Contact Support" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Submit Request" }).click();
    await expect(dialog.getByText("Please choose a subject")).toBeVisible();
    await expect(dialog.getByText("Please write a message")).toBeVisible();
    await expect(dialog.getByLabel("Message")).toHaveAttribute("rows", "5");
    const options = await dialog
      .getByLabel("Subject")
      .locator("option")
      .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value).filter(Boolean));
    expect(options).toEqual(["account", "trading", "technical", "billing", "feature", "other"]);

    await dialog.getByLabel("Subject").selectOption("technical");
    await dialog.getByLabel("Message").fill("The chart does not load on my phone.");
    const started = Date.now();
    await dialog.getByRole("button", { name: "Submit Request" }).click();
    await expect(dialog.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    await expect(page.getByText("Support request submitted successfully!")).toBeVisible();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await expect(dialog).toHaveCount(0);
  });
});

test.describe("notifications panel", () => {
  test("badge, filters, tap to read, mark all read and clear all, with the panel as an accessible dialog", async ({
    page,
  }) => {
    const demo = await apiUser("demo", "demo1234");
    await clearNotifications(demo);
    await notify(demo.id, { type: "system", title: "Scheduled maintenance", body: "Tonight 22:00 UTC" });
    await notify(demo.id, { type: "alert", title: "AAPL reached your 1st buy level", body: "AAPL is at 180.00" });
    await notify(demo.id, { type: "trade", title: "New recommendations for MSFT", body: "4 ideas", url: "/insights" });

    await signIn(page);
    await page.goto("/profile");
    // The panel keeps focus inside it once the page's scripts run (a press before opens it as a plain page).
    await waitForHydration(page);
    const bell = page.getByRole("link", { name: "Open notifications" });
    await expect(bell.getByText("3", { exact: true })).toBeVisible();
    await bell.click();

    const panel = page.getByRole("dialog", { name: "Notifications" });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("listitem")).toHaveCount(3);
    await expect(panel.getByText("Just now").first()).toBeVisible();

    await panel.getByRole("link", { name: "Trade", exact: true }).click();
    await expect(panel.getByRole("listitem")).toHaveCount(1);
    await expect(panel.getByText("New recommendations for MSFT")).toBeVisible();
    await panel.getByRole("link", { name: "System", exact: true }).click();
    await expect(panel.getByRole("listitem")).toHaveCount(1);
    await expect(panel.getByText("Scheduled maintenance")).toBeVisible();

    // Tapping an unread item marks it read: it leaves the Unread filter.
    await panel.getByRole("link", { name: /^Unread/ }).click();
    await expect(panel.getByRole("listitem")).toHaveCount(3);
    await panel.getByRole("button", { name: /AAPL reached your 1st buy level/ }).click();
    await expect(panel.getByRole("listitem")).toHaveCount(2);

    // Focus stays inside; Escape closes and the count is fetched again.
    for (let i = 0; i < 12; i++) await page.keyboard.press("Tab");
    expect(await panel.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(panel).toHaveCount(0);
    await expect(page).toHaveURL(/\/profile$/);
    await expect(bell.getByText("2", { exact: true })).toBeVisible();

    await bell.click();
    await panel.getByRole("button", { name: "Mark all read" }).click();
    await expect(page.getByText("All notifications marked as read")).toBeVisible();
    await expect(panel.getByRole("button", { name: "Mark all read" })).toBeDisabled();
    await panel.getByRole("link", { name: "Close" }).click();
    await expect(bell.locator(".bell__badge")).toHaveCount(0);

    await bell.click();
    await panel.getByRole("button", { name: "Clear all" }).click();
    await expect(page.getByText("All notifications cleared")).toBeVisible();
    await expect(panel.getByText("You have no notifications.")).toBeVisible();
  });

  test("opened straight from its address (a reload, a notification's link), the panel and the support dialog work once the scripts run", async ({
    page,
  }) => {
    // Their code loads only when one is open (ADR 0052): here it must arrive before hydration ends.
    const demo = await apiUser("demo", "demo1234");
    await clearNotifications(demo);
    await notify(demo.id, { type: "system", title: "Scheduled maintenance", body: "Tonight 22:00 UTC" });
    await signIn(page);

    await page.goto("/profile?panel=notifications");
    await waitForHydration(page);
    const panel = page.getByRole("dialog", { name: "Notifications" });
    await expect(panel.getByText("Scheduled maintenance")).toBeVisible();
    for (let i = 0; i < 8; i++) await page.keyboard.press("Tab");
    expect(await panel.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(panel).toHaveCount(0);
    await expect(page).toHaveURL(/\/profile$/);

    await page.goto("/profile?dialog=support");
    await waitForHydration(page);
    const dialog = page.getByRole("dialog", { name: "Contact Support" });
    await dialog.getByRole("button", { name: "Submit Request" }).click();
    await expect(dialog.getByText("Please choose a subject")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/profile$/);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the panel opens by URL, marks read, marks all read and clears all", async ({ page }) => {
      const demo = await apiUser("demo", "demo1234");
      await clearNotifications(demo);
      await notify(demo.id, { type: "success", title: "Order filled", body: "Sold 1 AAPL put" });
      await notify(demo.id, { type: "trade", title: "New recommendations for GOOGL", body: "2 ideas" });
      await signIn(page);
      await page.goto("/profile");
      await page.getByRole("link", { name: "Open notifications" }).click();
      await expect(page).toHaveURL(/panel=notifications/);
      await page.getByRole("button", { name: /Order filled/ }).click();
      await expect(page.getByRole("button", { name: /Order filled/ })).toHaveCount(0); // read: no longer a button
      await expect(page.getByRole("button", { name: /New recommendations for GOOGL/ })).toBeVisible();
      await page.getByRole("button", { name: "Mark all read" }).click();
      // (Toasts without JavaScript sit in <noscript>, which this browser mode does not show: check the state.)
      await expect(page.getByRole("button", { name: /New recommendations for GOOGL/ })).toHaveCount(0);
      await expect(page.getByText("New recommendations for GOOGL")).toBeVisible();
      await expect(page.getByRole("button", { name: "Mark all read" })).toBeDisabled();
      await page.getByRole("button", { name: "Clear all" }).click();
      await expect(page.getByText("You have no notifications.")).toBeVisible();
      await expect(page).toHaveURL(/panel=notifications/);
    });

    test("a tap on a placeholder says it is coming soon, as the page's own flash message", async ({ page }) => {
      await signIn(page);
      await page.goto("/profile");
      await card(page, "Security").getByRole("button", { name: "Change Password" }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expect(page.getByRole("status").filter({ hasText: "Change Password is coming soon." })).toHaveCount(1);
      await card(page, "Help & Support").getByRole("button", { name: "Trading Guide" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Trading Guide is coming soon." })).toHaveCount(1);
    });

    test("Contact Support works as a plain form", async ({ page }) => {
      await signIn(page);
      await page.goto("/profile?dialog=support");
      await page.getByLabel("Subject").selectOption("billing");
      await page.getByLabel("Message").fill("Please send my invoice.");
      await page.getByRole("button", { name: "Submit Request" }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expect(page.getByRole("dialog", { name: "Contact Support" })).toHaveCount(0);
    });
  });
});

test.describe("System Settings", () => {
  test("an admin flips auto refresh and trade recommendations; each change is stored before the switch moves", async ({
    page,
  }) => {
    await signIn(page, "admin", "admin1234");
    await page.goto("/profile");
    const settings = card(page, "System Settings");
    await expect(settings.getByText("Admin", { exact: true })).toBeVisible();
    for (const name of ["Auto Refresh", "Auto Trade Recommendations"]) {
      const toggle = settings.getByRole("switch", { name });
      await expect(toggle).toHaveAttribute("aria-checked", "false");
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-checked", "true");
      await page.reload();
      await expect(settings.getByRole("switch", { name })).toHaveAttribute("aria-checked", "true");
      await settings.getByRole("switch", { name }).click();
      await expect(settings.getByRole("switch", { name })).toHaveAttribute("aria-checked", "false");
    }
  });

  test("a trader's attempt is refused with the text of docs/product.md#roles-403 and changes nothing", async ({
    page,
  }) => {
    await signIn(page);
    // What a hand-made form post would do: the card is not shown to traders.
    const res = await page.request.post("/profile", {
      form: { intent: "config", key: "auto_refresh_enabled", value: "1" },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(302);
    await page.goto("/profile");
    await expect(page.getByText("You don't have permission to modify system settings")).toBeVisible();
    const admin = await apiUser("admin", "admin1234");
    const flag = await fetch(`${PROVIDER}/api/backend-config/auto_refresh_enabled`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(((await flag.json()) as { value: string }).value).toBe("0");
  });
});

test.describe("push", () => {
  const origin = workerAppUrl();

  async function pushSwitch(page: Page) {
    const toggle = card(page, "Notifications").getByRole("switch", { name: "Push Notifications" });
    await expect(toggle).toBeEnabled();
    return toggle;
  }

  test("without the browser's permission the switch stays off: 'Please enable notifications in your browser settings'", async ({
    page,
  }) => {
    await signIn(page);
    await page.goto("/profile");
    const toggle = await pushSwitch(page);
    await toggle.click();
    await expect(page.getByText("Please enable notifications in your browser settings")).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-checked", "false");
  });

  test("when the browser cannot get a device token from its push service: 'Failed to generate FCM token'", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["notifications"], { origin });
    await signIn(page);
    await page.goto("/profile");
    const toggle = await pushSwitch(page);
    await toggle.click();
    await expect(page.getByText("Failed to generate FCM token")).toBeVisible({ timeout: 25_000 });
    await expect(toggle).toHaveAttribute("aria-checked", "false");
  });

  test("with permission and a subscription, the device is stored opted in, and off again", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["notifications"], { origin });
    const endpoint = `https://fcm.googleapis.com/fcm/send/e2e-${Date.now()}`;
    await stubPushService(context, endpoint);
    await signIn(page);
    await page.goto("/profile");
    const toggle = await pushSwitch(page);
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    const token = await page.evaluate(() => localStorage.getItem("fcm_token"));
    expect(JSON.parse(token!).endpoint).toBe(endpoint);

    // The provider has the device, opted in, with the fields of docs/product.md#entities-device.
    const demo = await apiUser("demo", "demo1234");
    const stored = await fetch(`${PROVIDER}/api/user-devices/${demo.id}/${encodeURIComponent(token!)}`, {
      headers: { authorization: `Bearer ${demo.token}` },
    });
    expect(await stored.json()).toMatchObject({
      device_type: "web",
      notification_opt_in: "1",
      ip_address: "Unknown",
      browser: "Chrome",
      os: "Android",
      app_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });

    await page.reload();
    await expect(await pushSwitch(page)).toHaveAttribute("aria-checked", "true");
    await (await pushSwitch(page)).click();
    await expect(await pushSwitch(page)).toHaveAttribute("aria-checked", "false");
    await page.reload();
    await expect(await pushSwitch(page)).toHaveAttribute("aria-checked", "false");
  });

  test("signing out ends this browser's push subscription, so the next person gets no alerts of theirs", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["notifications"], { origin });
    await stubPushService(context, `https://fcm.googleapis.com/fcm/send/e2e-out-${Date.now()}`);
    // The browser reports its subscription; ending it is recorded where sign-out does not clear.
    await context.addInitScript(() => {
      PushManager.prototype.getSubscription = async function () {
        if (!localStorage.getItem("fcm_token") && sessionStorage.getItem("subscribed") !== "1") return null;
        return {
          unsubscribe: async () => {
            sessionStorage.setItem("unsubscribed", "1");
            sessionStorage.removeItem("subscribed");
            return true;
          },
        } as unknown as PushSubscription;
      };
    });
    await signIn(page);
    await page.goto("/profile");
    const toggle = await pushSwitch(page);
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await page.evaluate(() => sessionStorage.setItem("subscribed", "1"));
    await page.reload();
    await expect(await pushSwitch(page)).toHaveAttribute("aria-checked", "true");
    expect(await page.evaluate(() => sessionStorage.getItem("unsubscribed"))).toBeNull();

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem("unsubscribed"))).toBe("1");
  });

  test("a push while the app is open shows its body as a toast", async ({ page, context }) => {
    await context.grantPermissions(["notifications"], { origin });
    await signIn(page);
    await page.goto("/profile");
    await pushSwitch(page); // hydrated: the page listens for the worker's messages
    const deliver = await pushDelivery(page);
    await deliver({
      type: "alert",
      title: "KO reached your 2nd buy level",
      body: "KO is at 61.20",
      url: "/user-stocks",
    });
    await expect(page.getByText("KO is at 61.20")).toBeVisible();
  });

  test("a push with no app page open shows a system notification that leads to its screen", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["notifications"], { origin });
    await signIn(page);
    await page.goto("/profile");
    const deliver = await pushDelivery(page);
    await page.goto("about:blank");
    await deliver({ type: "trade", title: "New recommendations for AAPL", body: "3 new ideas", url: "/insights" });

    const check = await context.newPage();
    await check.goto("/profile");
    await expect
      .poll(() =>
        check.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return (await registration.getNotifications()).map((n) => ({
            title: n.title,
            body: n.body,
            url: (n.data as { url: string }).url,
          }));
        }),
      )
      .toContainEqual({ title: "New recommendations for AAPL", body: "3 new ideas", url: "/insights" });
  });

  test("the 'Notifications are not enabled.' banner shows when push was on here but the browser no longer allows it, then hides after 6 s", async ({
    page,
  }) => {
    await signIn(page);
    await page.evaluate(() => localStorage.setItem("fcm_token", '{"endpoint":"https://fcm.googleapis.com/x"}'));
    await page.goto("/user-stocks");
    const banner = page.getByRole("status").filter({ hasText: "Notifications are not enabled." });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("link", { name: "Enable Notifications" })).toHaveAttribute("href", "/profile#push");
    await expect(banner).toHaveCount(0, { timeout: 8000 });
  });

  test("the service worker is served from /service-worker.js without caching", async ({ request }) => {
    const res = await request.get("/service-worker.js");
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("no-cache");
    expect(await res.text()).toContain("notificationclick");
  });
});

/**
 * The browser's push service is on the internet, which these tests cannot reach: the page's
 * PushManager answers with a subscription at `endpoint`, as a push service would.
 */
async function stubPushService(context: BrowserContext, endpoint: string) {
  await context.addInitScript((endpoint) => {
    const json = {
      endpoint,
      expirationTime: null,
      keys: {
        p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
        auth: "tBHItJI5svbpez7KI4CCXg",
      },
    };
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      return {
        endpoint,
        expirationTime: null,
        options,
        toJSON: () => json,
        unsubscribe: async () => true,
        getKey: () => null,
      } as unknown as PushSubscription;
    };
  }, endpoint);
}

/** Delivers a push message to the page's service worker through the DevTools protocol. */
async function pushDelivery(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => registrations.push(...event.registrations));
  await cdp.send("ServiceWorker.enable");
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const origin = new URL(page.url()).origin;
  await expect.poll(() => registrations.some((r) => r.scopeURL.startsWith(origin) && !r.isDeleted)).toBe(true);
  const registrationId = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted)!.registrationId;
  return (message: object) =>
    cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(message) });
}
