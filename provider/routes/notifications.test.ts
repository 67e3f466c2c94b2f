import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { notifyUsers } from "#provider/push/notify.ts";

let provider: TestProvider;
let demo: { token: string; id: number };
let admin: { token: string; id: number };

async function signIn(name: string, password: string) {
  const token = await provider.login(name, password);
  const me = await provider.call(calls.me, { token });
  return { token, id: me.body.id as number };
}

beforeAll(async () => {
  provider = await testProvider();
  demo = await signIn("demo", "demo1234");
  admin = await signIn("admin", "admin1234");
});
afterAll(() => provider.close());

const list = (who: { token: string; id: number }) =>
  provider.call(calls.listNotifications, { token: who.token, params: { userId: who.id } });
const count = async (who: { token: string; id: number }) =>
  (await provider.call(calls.unreadCount, { token: who.token, params: { userId: who.id } })).body.unread_count;

describe("notifications", () => {
  it("lists a user's notifications newest first, valid against the contract, with the unread count", async () => {
    await notifyUsers(provider.context, [demo.id], { type: "system", title: "Welcome", body: "Hello" });
    await notifyUsers(provider.context, [demo.id, admin.id], {
      type: "trade",
      title: "New recommendations for AAPL",
      body: "3 ideas",
      url: "/insights",
    });
    const res = await list(demo);
    expect(res.status).toBe(200);
    const items = calls.listNotifications.response.parse(res.body);
    expect(items.map((i) => i.notification.title)).toEqual(["New recommendations for AAPL", "Welcome"]);
    expect(items[0]).toMatchObject({ read: 0, notification: { type: "trade", url: "/insights", action_required: 0 } });
    expect(await count(demo)).toBe(2);
    expect(await count(admin)).toBe(1);
  });

  it("marks one read, then all read, and clears all, each reflected in the count", async () => {
    const [first] = (await list(demo)).body;
    const marked = await provider.call(calls.markNotificationRead, { token: demo.token, params: { id: first.id } });
    expect(marked.status).toBe(200);
    expect(await count(demo)).toBe(1);
    expect((await list(demo)).body[0].read).toBe(1);

    const all = await provider.call(calls.markAllNotificationsRead, { token: demo.token, params: { userId: demo.id } });
    expect(all.body).toEqual({ message: "All notifications marked as read" });
    expect(await count(demo)).toBe(0);

    const cleared = await provider.call(calls.clearAllNotifications, {
      token: demo.token,
      params: { userId: demo.id },
    });
    expect(cleared.body).toEqual({ message: "All notifications cleared" });
    expect((await list(demo)).body).toEqual([]);
    // The admin's copy of the shared notification is untouched.
    expect((await list(admin)).body).toHaveLength(1);
  });

  it("never lets one trader read or change another user's notifications", async () => {
    const [adminItem] = (await list(admin)).body;
    for (const res of [
      await provider.call(calls.listNotifications, { token: demo.token, params: { userId: admin.id } }),
      await provider.call(calls.unreadCount, { token: demo.token, params: { userId: admin.id } }),
      await provider.call(calls.markAllNotificationsRead, { token: demo.token, params: { userId: admin.id } }),
      await provider.call(calls.clearAllNotifications, { token: demo.token, params: { userId: admin.id } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: "Not authorized to perform this action" });
    }
    // Another user's notification id answers like a missing one, so ids cannot be probed.
    const other = await provider.call(calls.markNotificationRead, { token: demo.token, params: { id: adminItem.id } });
    const missing = await provider.call(calls.markNotificationRead, { token: demo.token, params: { id: 999999 } });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(missing.body);
    expect(await count(admin)).toBe(1);
  });

  it("answers 404 for a notification that does not exist and 401 without a token", async () => {
    const missing = await provider.call(calls.markNotificationRead, { token: demo.token, params: { id: 999999 } });
    expect(missing.status).toBe(404);
    expect((await provider.call(calls.listNotifications, { params: { userId: demo.id } })).status).toBe(401);
  });

  it("lets an admin send a notification to users, and refuses traders", async () => {
    const body = { user_ids: [demo.id], type: "system", title: "Maintenance", body: "Tonight 22:00", url: "/profile" };
    const refused = await provider.call(calls.sendNotification, { token: demo.token, body });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("Not authorized to perform this action");

    const sent = await provider.call(calls.sendNotification, { token: admin.token, body });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ recipients: 1, sent: 0, removed: 0, failed: 0 });
    expect((await list(demo)).body[0].notification).toMatchObject({ title: "Maintenance", url: "/profile" });

    const offsite = await provider.call(calls.sendNotification, {
      token: admin.token,
      body: { ...body, url: "https://evil.example/" },
    });
    expect(offsite.status).toBe(422);
    // A tab or newline is dropped by browsers, which then read `//evil.example`: another host.
    for (const url of ["/\t/evil.example", "/\n/evil.example", "/a\\b"]) {
      const hidden = await provider.call(calls.sendNotification, { token: admin.token, body: { ...body, url } });
      expect(hidden.status, JSON.stringify(url)).toBe(422);
    }
  });
});
