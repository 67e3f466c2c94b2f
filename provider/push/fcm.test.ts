import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as calls from "#contract/calls.ts";
import { PushMessage } from "#contract/push.ts";
import { startFcmFake, type FcmFake } from "../../tests/support/fcm-fake.ts";
import { startPushReceiver, type PushReceiver } from "../../tests/support/push-receiver.ts";
import { providerStartOptions, readProviderEnv } from "#provider/env.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { notifyNewRecommendations, notifyPriceCrossings } from "./alerts.ts";
import { createFcmSender, DEFAULT_FCM_API_URL, DEFAULT_FCM_TOKEN_URL } from "./fcm.ts";
import { notifyUsers } from "./notify.ts";

/**
 * The FCM HTTP v1 transport against a local fake of Google's OAuth token endpoint and FCM API
 * (tests/support/fcm-fake.ts) that verifies the service account's signed assertion and the
 * access token, configured the way an operator does: FIREBASE_SERVICE_ACCOUNT naming a key file.
 */
const APP_URL = "https://putseller.example";
const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const privateKeyPem = keys.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
const account = {
  type: "service_account",
  project_id: "putseller-test",
  private_key_id: "0123abcd",
  private_key: privateKeyPem,
  client_email: "fcm-sender@putseller-test.iam.gserviceaccount.com",
  client_id: "1234567890",
  token_uri: "https://oauth2.googleapis.com/token",
};

let dir: string;
let keyFile: string;
let fake: FcmFake;
let receiver: PushReceiver;
let provider: TestProvider;
let demo: { token: string; id: number };
let admin: { token: string; id: number };

/** A registration token shaped like the ones the Firebase SDKs hand out. */
const fcmToken = () => `${randomBytes(8).toString("hex")}:APA91b${randomBytes(100).toString("base64url")}`;

async function signIn(on: TestProvider, name: string, password: string) {
  const token = await on.login(name, password);
  const me = await on.call(calls.me, { token });
  return { token, id: me.body.id as number };
}

async function register(on: TestProvider, who: { token: string; id: number }, deviceToken: string) {
  const res = await on.call(calls.registerDevice, {
    token: who.token,
    params: { userId: who.id },
    body: {
      device_type: "web",
      fcm_token: deviceToken,
      browser: "Chrome",
      os: "Android",
      ip_address: "Unknown",
      user_agent: "Mozilla/5.0 (Linux; Android 14) Chrome/140",
      app_version: "0.1.0",
      notification_opt_in: "1",
    },
  });
  expect(res.status).toBe(200);
}

async function deviceStatus(on: TestProvider, who: { token: string; id: number }, deviceToken: string) {
  const res = await on.call(calls.getDevice, { token: who.token, params: { userId: who.id, fcmToken: deviceToken } });
  return res.status;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "fcm-test-"));
  keyFile = path.join(dir, "service-account.json");
  writeFileSync(keyFile, JSON.stringify(account, null, 2));
  fake = await startFcmFake({
    projectId: account.project_id,
    clientEmail: account.client_email,
    publicKey: keys.publicKey,
  });
  receiver = await startPushReceiver();
  const env = readProviderEnv({
    FIREBASE_SERVICE_ACCOUNT: keyFile,
    FCM_API_URL: fake.apiUrl,
    FCM_TOKEN_URL: fake.tokenUrl,
  });
  provider = await testProvider({
    appUrl: APP_URL,
    fcm: providerStartOptions(env).fcm,
    pushAgent: receiver.agent,
    pushAllowedHosts: ["localhost"],
  });
  demo = await signIn(provider, "demo", "demo1234");
  admin = await signIn(provider, "admin", "admin1234");
});
afterAll(async () => {
  await provider?.close();
  await receiver?.close();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("FCM transport", () => {
  it("a price alert reaches FCM with the Web Push payload's title, body and screen; each device by its transport", async () => {
    const phone = fcmToken();
    const browser = receiver.subscribe();
    await register(provider, demo, phone);
    await register(provider, demo, JSON.stringify(browser.json));
    const row = await provider.context.db
      .selectFrom("user_stocks as us")
      .innerJoin("stocks as s", "s.id", "us.stock_id")
      .select(["us.stock_id", "us.buy_level_one"])
      .where("us.user_id", "=", demo.id)
      .where("s.ticker", "=", "AAPL")
      .executeTakeFirstOrThrow();
    const results = await notifyPriceCrossings(provider.context, {
      stockId: row.stock_id,
      previousPrice: row.buy_level_one + 1,
      price: row.buy_level_one - 0.5,
    });
    const mine = results.find((r) => r.recipients.some((x) => x.userId === demo.id))!;
    expect(mine).toMatchObject({ sent: 2, removed: 0, failed: 0 });

    const webPush = PushMessage.parse(JSON.parse((await receiver.next(browser.id)).text));
    const { message } = await fake.next(phone);
    expect(message.token).toBe(phone);
    expect(message.notification).toEqual({ title: "AAPL reached your 1st buy level", body: webPush.body });
    expect(message.notification?.body).toContain(`AAPL is at ${(row.buy_level_one - 0.5).toFixed(2)}`);
    expect(message.data).toEqual({
      type: "alert",
      title: webPush.title,
      body: webPush.body,
      url: "/user-stocks",
      notification_id: String(webPush.notification_id),
    });
    expect(message.webpush?.fcm_options?.link).toBe(`${APP_URL}/user-stocks`);
    expect(message.webpush?.headers).toMatchObject({ Urgency: "high" });
    // The Web Push subscription went to the push service, never to FCM.
    expect(fake.received.some((m) => m.token.includes("endpoint"))).toBe(false);
  });

  it("new recommendations reach FCM with a link to /insights", async () => {
    const phone = fcmToken();
    await register(provider, demo, phone);
    const flagged = await provider.context.db
      .selectFrom("user_stocks as us")
      .innerJoin("stocks as s", "s.id", "us.stock_id")
      .select(["us.stock_id"])
      .where("s.ticker", "=", "MSFT")
      .where("us.user_id", "=", demo.id)
      .where("us.generate_recommendation", "=", true)
      .executeTakeFirstOrThrow();
    const result = await notifyNewRecommendations(provider.context, { stockId: flagged.stock_id, count: 3 });
    expect(result?.failed).toBe(0);
    const { message } = await fake.next(phone);
    expect(message.notification).toEqual({
      title: "New recommendations for MSFT",
      body: "3 new sell-put ideas for MSFT are ready.",
    });
    expect(message.data).toMatchObject({ type: "trade", url: "/insights" });
    expect(message.webpush?.fcm_options?.link).toBe(`${APP_URL}/insights`);
    expect(message.webpush?.headers).toMatchObject({ Urgency: "normal" });
  });

  it("signs in once and reuses the access token across sends and devices", async () => {
    const tokens = [fcmToken(), fcmToken(), fcmToken()];
    for (const t of tokens) await register(provider, admin, t);
    for (const title of ["One", "Two"]) {
      const result = await notifyUsers(provider.context, [admin.id], { type: "system", title, body: "x" });
      expect(result).toMatchObject({ sent: 3, failed: 0 });
    }
    for (const t of tokens) {
      expect((await fake.next(t)).message.notification?.title).toBe("One");
      expect((await fake.next(t)).message.notification?.title).toBe("Two");
    }
    expect(fake.signIns).toEqual([{ ok: true }]);
    expect(new Set(fake.received.map((m) => m.accessToken)).size).toBe(1);
  });

  it("answers a 401 by signing in again, once, and the push goes through", async () => {
    const phone = fcmToken();
    await register(provider, demo, phone);
    const before = fake.signIns.length;
    const used = fake.received.at(-1)!.accessToken;
    fake.revokeAccessTokens();
    const result = await notifyUsers(provider.context, [demo.id], { type: "system", title: "After 401", body: "x" });
    expect(result.failed).toBe(0);
    expect(result.sent).toBeGreaterThanOrEqual(1);
    const got = await fake.next(phone);
    expect(got.accessToken).not.toBe(used);
    expect(fake.signIns.slice(before)).toEqual([{ ok: true }]);
  });

  it("forgets a device whose token FCM calls UNREGISTERED or invalid, and keeps the stored notification", async () => {
    const uninstalled = fcmToken();
    const malformed = "not a registration token";
    const alive = fcmToken();
    for (const t of [uninstalled, malformed, alive]) await register(provider, admin, t);
    fake.unregister(uninstalled);
    const result = await notifyUsers(provider.context, [admin.id], { type: "system", title: "Still here?", body: "y" });
    expect(result).toMatchObject({ removed: 2, failed: 0 });
    expect(await deviceStatus(provider, admin, uninstalled)).toBe(404);
    expect(await deviceStatus(provider, admin, malformed)).toBe(404);
    expect(await deviceStatus(provider, admin, alive)).toBe(200);
    expect((await fake.next(alive)).message.notification?.title).toBe("Still here?");
    const listed = await provider.call(calls.listNotifications, { token: admin.token, params: { userId: admin.id } });
    expect(listed.body[0].notification.title).toBe("Still here?");
  });

  it("keeps the device when FCM answers 500 or 429, and logs it", async () => {
    const phone = fcmToken();
    await register(provider, demo, phone);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      for (const status of [500, 429]) {
        fake.failWith(phone, status);
        const result = await notifyUsers(provider.context, [demo.id], { type: "system", title: "Down", body: "z" });
        expect(result.removed).toBe(0);
        expect(result.failed).toBe(1);
        expect(await deviceStatus(provider, demo, phone)).toBe(200);
        expect(warn.mock.calls.flat().join("\n")).toContain(`FCM answered ${status}`);
      }
    } finally {
      warn.mockRestore();
      fake.failWith(phone, null);
    }
    const result = await notifyUsers(provider.context, [demo.id], { type: "system", title: "Back", body: "z" });
    expect(result.failed).toBe(0);
    expect((await fake.next(phone)).message.notification?.title).toBe("Back");
  });

  it("a refused sign-in (a key Google does not know) fails the sends, and is not retried for every device", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const send = createFcmSender(
      {
        projectId: account.project_id,
        clientEmail: account.client_email,
        privateKey: other.export({ type: "pkcs8", format: "pem" }) as string,
        apiUrl: fake.apiUrl,
        tokenUrl: fake.tokenUrl,
      },
      { appUrl: APP_URL },
    );
    const before = fake.signIns.length;
    const message = { type: "system", title: "t", body: "b", url: null };
    const outcomes = await Promise.all([send(fcmToken(), message), send(fcmToken(), message)]);
    outcomes.push(await send(fcmToken(), message));
    for (const outcome of outcomes) {
      expect(outcome).toEqual({
        result: "failed",
        reason: "FCM sign-in answered 400 invalid_grant: Invalid JWT Signature.",
      });
    }
    expect(fake.signIns.slice(before)).toEqual([{ ok: false, reason: "Invalid JWT Signature." }]);
  });

  it("without FIREBASE_SERVICE_ACCOUNT, FCM tokens are skipped with a log line and kept, as before", async () => {
    const plain = await testProvider();
    try {
      const who = await signIn(plain, "demo", "demo1234");
      const phone = fcmToken();
      await register(plain, who, phone);
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      let result;
      try {
        result = await notifyUsers(plain.context, [who.id], { type: "system", title: "Nobody", body: "x" });
        expect(warn.mock.calls.flat().join("\n")).toContain("not a Web Push subscription and FCM is not configured");
      } finally {
        warn.mockRestore();
      }
      expect(result).toMatchObject({ sent: 0, removed: 0, failed: 1 });
      expect(await deviceStatus(plain, who, phone)).toBe(200);
      expect(fake.received.some((m) => m.token === phone)).toBe(false);
    } finally {
      await plain.close();
    }
  });
});

describe("FIREBASE_SERVICE_ACCOUNT", () => {
  it("takes the key file's path or its JSON; FCM and OAuth URLs default to Google's", () => {
    const expected = {
      projectId: account.project_id,
      clientEmail: account.client_email,
      privateKey: privateKeyPem,
      privateKeyId: account.private_key_id,
      apiUrl: DEFAULT_FCM_API_URL,
      tokenUrl: DEFAULT_FCM_TOKEN_URL,
    };
    const fcmOf = (value: string | undefined) =>
      providerStartOptions(readProviderEnv({ FIREBASE_SERVICE_ACCOUNT: value })).fcm;
    expect(fcmOf(keyFile)).toEqual(expected);
    expect(fcmOf(JSON.stringify(account))).toEqual(expected);
    // A key whose newlines a platform flattened to the two characters \n.
    const flattened = JSON.stringify(account).replace(/\\n/g, "\\\\n");
    expect(fcmOf(flattened)).toEqual(expected);
    expect(fcmOf(undefined)).toBeUndefined();
    expect(fcmOf("")).toBeUndefined();
  });

  it("a bad setting stops start-up with a readable line that never shows the key", () => {
    const secret = privateKeyPem.split("\n")[1]!;
    const cases: [string, RegExp][] = [
      [
        path.join(dir, "missing.json"),
        /FIREBASE_SERVICE_ACCOUNT: neither service account JSON nor a readable file .*ENOENT/,
      ],
      [JSON.stringify(account).slice(0, -5), /FIREBASE_SERVICE_ACCOUNT: not valid JSON/],
      [JSON.stringify({ ...account, client_email: undefined }), /client_email is missing/],
      [JSON.stringify({ ...account, type: "authorized_user" }), /not a service account key/],
      [
        JSON.stringify({ ...account, private_key: `-----BEGIN PRIVATE KEY-----\n${secret}\n` }),
        /private_key is not a PEM private key/,
      ],
    ];
    for (const [value, message] of cases) {
      let error: Error | undefined;
      try {
        readProviderEnv({ FIREBASE_SERVICE_ACCOUNT: value });
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message).toMatch(message);
      expect(error?.message).not.toContain(secret);
    }
    expect(() => readProviderEnv({ FCM_API_URL: "not a url" })).toThrow(/FCM_API_URL/);
  });
});
