import { expect, test } from "./support/test.ts";
import { startPushReceiver, type PushReceiver } from "../support/push-receiver.ts";
import { ownPorts } from "./support/ports.ts";
import { providerToken, turnPushOn } from "./support/push.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";

/**
 * Push end to end: the browser turns push on, the provider sends a Web Push message to the
 * subscription's push service, and the service worker shows it. The push service (on the internet
 * in real life) is tests/support/push-receiver.ts: a local HTTPS endpoint that checks VAPID and
 * decrypts the payload; its plaintext is handed to the worker through the DevTools protocol, as a
 * browser's push service connection would.
 */
const ports = ownPorts();
const appPort = ports.app[0]!;
const providerPort = ports.provider[0]!;
const origin = `http://localhost:${appPort}`;
const provider = `http://127.0.0.1:${providerPort}`;
let receiver: PushReceiver;
let app: Started;

test.beforeAll(async () => {
  // Starting servers (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  receiver = await startPushReceiver();
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_PORT: String(providerPort),
      DATA_DIR: tempDir("putseller-push-"),
      SEED_DEMO: "true",
      SESSION_SECRET: "push-chain-session-secret-0123456789abcdef",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      // The local push service: trusted, and allowed as a subscription host.
      NODE_EXTRA_CA_CERTS: receiver.certificateFile,
      PUSH_ALLOWED_HOSTS: "localhost",
    },
    origin,
  );
});

test.afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

test("a notification sent by the provider reaches the browser's service worker and shows as a toast", async ({
  page,
}) => {
  const subscription = receiver.subscribe();
  await turnPushOn(page, origin, subscription);

  const adminToken = await providerToken(provider, "admin", "admin1234");
  const demoToken = await providerToken(provider, "demo", "demo1234");
  const me = (await (
    await fetch(`${provider}/auth/users/me`, { headers: { authorization: `Bearer ${demoToken}` } })
  ).json()) as {
    id: number;
  };
  const sent = await fetch(`${provider}/api/admin/notifications`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({
      user_ids: [me.id],
      type: "alert",
      title: "AAPL reached your 1st buy level",
      body: "AAPL is at 180.00, at or below your 1st buy level of 182.",
      url: "/user-stocks",
    }),
  });
  expect(await sent.json()).toMatchObject({ recipients: 1, sent: 1, removed: 0, failed: 0 });

  // What the push service received, decrypted with the subscription's keys.
  const push = await receiver.next(subscription.id);
  expect(JSON.parse(push.text)).toMatchObject({ type: "alert", url: "/user-stocks" });
  expect(push.vapid.aud).toBe(receiver.origin);

  const cdp = await page.context().newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => registrations.push(...event.registrations));
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrations.some((r) => r.scopeURL.startsWith(origin) && !r.isDeleted)).toBe(true);
  const registrationId = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted)!.registrationId;
  await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: push.text });

  await expect(page.getByText("AAPL is at 180.00, at or below your 1st buy level of 182.")).toBeVisible();
  // The page refreshed its data: the bell counts the new notification.
  await expect(page.getByRole("link", { name: "Open notifications" }).getByText("1", { exact: true })).toBeVisible();
});

test("a subscription the push service says is gone is forgotten by the provider", async ({ page }) => {
  const subscription = receiver.subscribe();
  await turnPushOn(page, origin, subscription);
  receiver.expire(subscription.id);
  const adminToken = await providerToken(provider, "admin", "admin1234");
  const demoToken = await providerToken(provider, "demo", "demo1234");
  const me = (await (
    await fetch(`${provider}/auth/users/me`, { headers: { authorization: `Bearer ${demoToken}` } })
  ).json()) as {
    id: number;
  };
  const sent = await fetch(`${provider}/api/admin/notifications`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ user_ids: [me.id], type: "system", title: "Hello", body: "Anyone there?" }),
  });
  expect(await sent.json()).toMatchObject({ removed: 1 });
  // The switch reads the device from the provider: it is off again.
  await page.reload();
  const toggle = page
    .getByRole("region", { name: "Notifications" })
    .getByRole("switch", { name: "Push Notifications" });
  await expect(toggle).toBeEnabled();
  await expect(toggle).toHaveAttribute("aria-checked", "false");
});
