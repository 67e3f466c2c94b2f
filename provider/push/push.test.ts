import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { PushMessage } from "#contract/push.ts";
import { startPushReceiver, type PushReceiver, type TestSubscription } from "../../tests/support/push-receiver.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { notifyUsers } from "./notify.ts";
import { crossedLevel, notifyNewRecommendations, notifyPriceCrossings } from "./alerts.ts";
import { pushHostAllowed } from "./hosts.ts";
import { loadVapidKeys } from "./vapid.ts";

/**
 * The provider's Web Push sender against a local HTTPS push endpoint that checks VAPID and
 * decrypts each payload as a browser would (tests/support/push-receiver.ts).
 */
let receiver: PushReceiver;
let provider: TestProvider;
let demo: { token: string; id: number };
let admin: { token: string; id: number };

async function signIn(name: string, password: string) {
  const token = await provider.login(name, password);
  const me = await provider.call(calls.me, { token });
  return { token, id: me.body.id as number };
}

function device(subscription: TestSubscription, optIn: "1" | "0" = "1") {
  return {
    device_type: "web" as const,
    fcm_token: JSON.stringify(subscription.json),
    browser: "Chrome",
    os: "Android",
    ip_address: "Unknown",
    user_agent: "Mozilla/5.0 (Linux; Android 14) Chrome/140",
    app_version: "0.1.0",
    notification_opt_in: optIn,
  };
}

async function register(who: { token: string; id: number }, subscription: TestSubscription, optIn: "1" | "0" = "1") {
  const res = await provider.call(calls.registerDevice, {
    token: who.token,
    params: { userId: who.id },
    body: device(subscription, optIn),
  });
  expect(res.status).toBe(200);
  return res;
}

beforeAll(async () => {
  receiver = await startPushReceiver();
  provider = await testProvider({ pushAgent: receiver.agent, pushAllowedHosts: ["localhost"] });
  demo = await signIn("demo", "demo1234");
  admin = await signIn("admin", "admin1234");
});
afterAll(async () => {
  await provider?.close();
  await receiver?.close();
});

describe("devices", () => {
  it("stores the device and answers its opt-in by user and token", async () => {
    const sub = receiver.subscribe();
    await register(demo, sub, "1");
    const token = JSON.stringify(sub.json);
    const res = await provider.call(calls.getDevice, {
      token: demo.token,
      params: { userId: demo.id, fcmToken: token },
    });
    expect(res.status).toBe(200);
    expect(calls.getDevice.response.parse(res.body)).toMatchObject({ notification_opt_in: "1", browser: "Chrome" });

    await register(demo, sub, "0");
    const after = await provider.call(calls.getDevice, {
      token: demo.token,
      params: { userId: demo.id, fcmToken: token },
    });
    expect(after.body.notification_opt_in).toBe("0");
  });

  it("answers 404 for an unknown token and 403 for another user's devices", async () => {
    const unknown = await provider.call(calls.getDevice, {
      token: demo.token,
      params: { userId: demo.id, fcmToken: "nope" },
    });
    expect(unknown.status).toBe(404);
    const other = await provider.call(calls.getDevice, {
      token: demo.token,
      params: { userId: admin.id, fcmToken: "x" },
    });
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe("Not authorized to perform this action");
    const write = await provider.call(calls.registerDevice, {
      token: demo.token,
      params: { userId: admin.id },
      body: device(receiver.subscribe()),
    });
    expect(write.status).toBe(403);
  });

  it("refuses subscriptions that point anywhere but an allowed push service (no SSRF)", async () => {
    for (const endpoint of [
      "https://169.254.169.254/latest",
      "http://localhost:1/push/x",
      "https://localhost.evil.example/p",
    ]) {
      const sub = receiver.subscribe();
      const res = await provider.call(calls.registerDevice, {
        token: demo.token,
        params: { userId: demo.id },
        body: { ...device(sub), fcm_token: JSON.stringify({ ...sub.json, endpoint }) },
      });
      expect(res.status).toBe(422);
      expect(res.body.detail).toBe("fcm_token: this push service is not allowed");
    }
    const broken = await provider.call(calls.registerDevice, {
      token: demo.token,
      params: { userId: demo.id },
      body: { ...device(receiver.subscribe()), fcm_token: '{"endpoint":"https://localhost/x"}' },
    });
    expect(broken.status).toBe(422);
    expect(pushHostAllowed("fcm.googleapis.com", ["fcm.googleapis.com"])).toBe(true);
    expect(pushHostAllowed("updates.push.services.mozilla.com", ["push.services.mozilla.com"])).toBe(true);
    expect(pushHostAllowed("evilfcm.googleapis.com.example", ["fcm.googleapis.com"])).toBe(false);
  });

  it("gives a browser's subscription to whoever signed in on it last", async () => {
    const shared = receiver.subscribe();
    await register(admin, shared);
    await register(demo, shared);
    const token = JSON.stringify(shared.json);
    const adminCopy = await provider.call(calls.getDevice, {
      token: admin.token,
      params: { userId: admin.id, fcmToken: token },
    });
    expect(adminCopy.status).toBe(404);
    await notifyUsers(provider.context, [admin.id], { type: "system", title: "For the admin", body: "only" });
    await notifyUsers(provider.context, [demo.id], { type: "system", title: "For demo", body: "only" });
    const push = await receiver.next(shared.id);
    expect(JSON.parse(push.text).title).toBe("For demo");
  });

  it("serves the VAPID public key browsers subscribe with; the stored pair is reused, settings win", async () => {
    const res = await provider.call(calls.pushPublicKey);
    expect(res.status).toBe(200);
    expect(Buffer.from(res.body.public_key, "base64url")).toHaveLength(65);
    expect(res.body.public_key).toBe(provider.context.push.publicKey);
    const again = await loadVapidKeys(provider.context.db);
    expect(again.publicKey).toBe(res.body.public_key);
    const given = await loadVapidKeys(provider.context.db, {
      publicKey: "pub",
      privateKey: "priv",
      subject: "https://x.example",
    });
    expect(given).toEqual({ publicKey: "pub", privateKey: "priv", subject: "https://x.example" });
  });
});

describe("notifyUsers", () => {
  it("stores the notification and delivers an encrypted, VAPID-signed push to each opted-in device", async () => {
    receiver.received.length = 0;
    const phone = receiver.subscribe();
    const laptop = receiver.subscribe();
    const optedOut = receiver.subscribe();
    const other = await signIn("admin", "admin1234");
    await register(admin, phone);
    await register(admin, laptop);
    await register(admin, optedOut, "0");

    const result = await notifyUsers(provider.context, [other.id], {
      type: "alert",
      title: "AAPL reached your 1st buy level",
      body: "AAPL is at 180.00",
      url: "/user-stocks",
      actionRequired: true,
    });
    expect(result).toMatchObject({ sent: 2, removed: 0, failed: 0 });

    const pushes = [await receiver.next(phone.id), await receiver.next(laptop.id)];
    for (const push of pushes) {
      const message = PushMessage.parse(JSON.parse(push.text));
      expect(message).toMatchObject({ type: "alert", title: "AAPL reached your 1st buy level", url: "/user-stocks" });
      expect(message.notification_id).toBe(result.recipients[0]!.userNotificationId);
      expect(push.vapid.publicKey).toBe(provider.context.push.publicKey);
      expect(push.urgency).toBe("high");
      expect(Number(push.ttl)).toBeGreaterThan(0);
    }
    expect(receiver.received.some((p) => p.subscriptionId === optedOut.id)).toBe(false);

    const listed = await provider.call(calls.listNotifications, { token: admin.token, params: { userId: admin.id } });
    expect(listed.body[0]).toMatchObject({
      read: 0,
      notification: { title: "AAPL reached your 1st buy level", action_required: 1 },
    });
  });

  it("forgets a device whose push service answers 410 Gone, and keeps the stored notification", async () => {
    const sub = receiver.subscribe();
    await register(demo, sub);
    receiver.expire(sub.id);
    const result = await notifyUsers(provider.context, [demo.id], { type: "system", title: "Gone?", body: "yes" });
    expect(result.removed).toBeGreaterThanOrEqual(1);
    const lookup = await provider.call(calls.getDevice, {
      token: demo.token,
      params: { userId: demo.id, fcmToken: JSON.stringify(sub.json) },
    });
    expect(lookup.status).toBe(404);
    const listed = await provider.call(calls.listNotifications, { token: demo.token, params: { userId: demo.id } });
    expect(listed.body[0].notification.title).toBe("Gone?");
  });

  it("does nothing for nobody", async () => {
    expect(await notifyUsers(provider.context, [], { type: "system", title: "x", body: "y" })).toMatchObject({
      notificationId: null,
      sent: 0,
    });
  });
});

describe("alerts", () => {
  it("crossedLevel finds the deepest buy level a falling price reached", () => {
    const levels = { buy_level_one: 100, buy_level_two: 90, buy_level_three: 80, buy_level_four: 0 };
    expect(crossedLevel(levels, 101, 100)).toEqual({ name: "1st", value: 100 });
    expect(crossedLevel(levels, 101, 85)).toEqual({ name: "2nd", value: 90 });
    expect(crossedLevel(levels, 95, 92)).toBeNull();
    expect(crossedLevel(levels, 85, 95)).toBeNull(); // rising is not an alert
    expect(crossedLevel(levels, 1, 0)).toBeNull(); // an unset level (0) never fires
  });

  it("a watchlist stock falling through the user's buy level notifies that user by push", async () => {
    const sub = receiver.subscribe();
    await register(demo, sub);
    const row = await provider.context.db
      .selectFrom("user_stocks as us")
      .innerJoin("stocks as s", "s.id", "us.stock_id")
      .select(["us.stock_id", "us.buy_level_one", "s.ticker"])
      .where("us.user_id", "=", demo.id)
      .where("s.ticker", "=", "AAPL")
      .executeTakeFirstOrThrow();
    const level = row.buy_level_one;
    const results = await notifyPriceCrossings(provider.context, {
      stockId: row.stock_id,
      previousPrice: level + 1,
      price: level - 0.5,
    });
    expect(results.some((r) => r.recipients.some((x) => x.userId === demo.id))).toBe(true);
    const push = PushMessage.parse(JSON.parse((await receiver.next(sub.id)).text));
    expect(push).toMatchObject({ type: "alert", title: "AAPL reached your 1st buy level", url: "/user-stocks" });
    expect(push.body).toContain(`AAPL is at ${(level - 0.5).toFixed(2)}`);
  });

  it("a UIP stock crossing a buy level notifies the users who rang its bell, and nobody else", async () => {
    const sub = receiver.subscribe();
    await register(admin, sub);
    const uip = await provider.context.db
      .selectFrom("uip_stocks as u")
      .innerJoin("stocks as s", "s.id", "u.stock_id")
      .select(["u.id", "u.stock_id", "u.buy_level_two", "s.ticker"])
      .where("s.ticker", "=", "NVDA")
      .executeTakeFirstOrThrow();
    await provider.context.db
      .insertInto("uip_price_alerts")
      .values({ user_id: admin.id, uip_stock_id: uip.id })
      .execute();
    const results = await notifyPriceCrossings(provider.context, {
      stockId: uip.stock_id,
      previousPrice: uip.buy_level_two + 0.01,
      price: uip.buy_level_two,
    });
    expect(results).toHaveLength(1); // NVDA is not on the demo watchlists
    expect(results[0]!.recipients.map((r) => r.userId)).toEqual([admin.id]);
    const push = PushMessage.parse(JSON.parse((await receiver.next(sub.id)).text));
    expect(push).toMatchObject({ title: "NVDA reached the UIP 2nd buy level", url: "/uip-stocks" });
  });

  it("new recommendations notify the users who flagged the ticker, with a link to /insights", async () => {
    const sub = receiver.subscribe();
    await register(demo, sub);
    const flagged = await provider.context.db
      .selectFrom("user_stocks as us")
      .innerJoin("stocks as s", "s.id", "us.stock_id")
      .select(["us.stock_id", "us.user_id"])
      .where("s.ticker", "=", "MSFT")
      .where("us.generate_recommendation", "=", true)
      .execute();
    const result = await notifyNewRecommendations(provider.context, { stockId: flagged[0]!.stock_id, count: 4 });
    expect(result?.recipients.map((r) => r.userId).sort()).toEqual(flagged.map((f) => f.user_id).sort());
    const push = PushMessage.parse(JSON.parse((await receiver.next(sub.id)).text));
    expect(push).toMatchObject({
      type: "trade",
      title: "New recommendations for MSFT",
      body: "4 new sell-put ideas for MSFT are ready.",
      url: "/insights",
    });
    const kept = await provider.context.db
      .selectFrom("user_stocks as us")
      .innerJoin("stocks as s", "s.id", "us.stock_id")
      .select("us.stock_id")
      .where("s.ticker", "=", "KO")
      .executeTakeFirstOrThrow();
    expect(await notifyNewRecommendations(provider.context, { stockId: kept.stock_id, count: 2 })).toBeNull();
  });
});
