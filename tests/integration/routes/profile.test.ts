import { describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import type { NotificationItem } from "#contract/entities.ts";
import { ALERT_SETTINGS_TEXT } from "#app/routes/profile/alert-settings.ts";
import { messages } from "#app/lib/messages.ts";
import { userCall } from "#app/server/auth.server.ts";
import { PROFILE_INTENT } from "#app/routes/profile/intents.ts";
import { SupportSchema } from "#app/lib/support-schemas.ts";
import * as route from "#app/routes/profile/route.tsx";
import { callAction, callLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/** /profile's action, one test per intent, and its loader, through the route module against the embedded provider. */
const app = routeHarnessForFile();

/** The admin sends the trader a notification (what an alert or a generation run does). */
async function notifyTrader(title: string) {
  const trader_id = (await userCall(app.trader, calls.me)).id;
  await userCall(app.admin, calls.sendNotification, {
    body: { user_ids: [trader_id], type: "system", title, body: `${title}, in full.` },
  });
}
interface ProfilePage {
  unread: { count: number; error: string | null };
  panel: { items: NotificationItem[]; error: string | null } | null;
}
const profile = async (url = "/profile") => (await callLoader(route, app.trader, url)).data as ProfilePage;

describe("/profile loader", () => {
  it("shows the bell's unread count, and the list only with the panel open", async () => {
    await notifyTrader("First");
    await notifyTrader("Second");
    expect((await profile()).unread).toEqual({ count: 2, error: null });
    expect((await profile()).panel).toBeNull();
    const panel = (await profile("/profile?panel=notifications")).panel!;
    expect(panel.items.map((item) => item.notification.title).sort()).toEqual(["First", "Second"]);
  });

  it("sends a signed-out visit and a signed-out post to sign in, changing nothing", async () => {
    expect(await callLoader(route, signedOut(), "/profile")).toMatchObject({ status: 302, location: "/login" });
    const post = await callAction(route, signedOut(), "/profile", { intent: PROFILE_INTENT.markAllRead });
    expect(post).toMatchObject({ status: 302, location: "/login" });
    expect((await profile()).unread.count).toBe(2);
  });
});

describe("/profile", () => {
  it("marks one notification read, back to the open panel, and the bell counts one fewer", async () => {
    const [first] = (await profile("/profile?panel=notifications")).panel!.items;
    const answer = await callAction(route, app.trader, "/profile?panel=notifications&filter=unread", {
      intent: PROFILE_INTENT.markRead,
      id: String(first!.id),
    });
    expect(answer).toMatchObject({ status: 302, location: "/profile?panel=notifications&filter=unread", toast: null });
    const page = await profile("/profile?panel=notifications");
    expect(page.unread.count).toBe(1);
    expect(page.panel!.items.find((item) => item.id === first!.id)!.read).toBe(1);
  });

  it("refuses to mark another trader's notification read, changing nothing", async () => {
    const [mine] = (await profile("/profile?panel=notifications")).panel!.items.filter((item) => item.read === 0);
    const before = await profile("/profile?panel=notifications");
    const { callProvider } = await import("#app/server/provider.server.ts");
    const other = { username: "othertrader", password: "other12345" };
    await callProvider(calls.register, {
      body: { ...other, email: "other@example.com", first_name: "Otto", last_name: "Other" },
    });
    const stranger = await app.signIn(other.username, other.password);
    const answer = await callAction(route, stranger, "/profile?panel=notifications", {
      intent: PROFILE_INTENT.markRead,
      id: String(mine!.id),
    });
    expect(answer.toast).toEqual({ type: "error", text: messages.markReadFailed });
    const after = await profile("/profile?panel=notifications");
    expect({ unread: after.unread, items: after.panel!.items }).toEqual({
      unread: before.unread,
      items: before.panel!.items,
    });
  });

  it("marks every notification read and comes back to the open panel with a toast", async () => {
    const answer = await callAction(route, app.trader, "/profile?panel=notifications&filter=unread", {
      intent: PROFILE_INTENT.markAllRead,
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/profile?panel=notifications&filter=unread",
      toast: { type: "success", text: messages.allMarkedRead },
    });
    const page = await callLoader(route, app.trader, "/profile");
    expect((page.data as { unread: { count: number } }).unread).toEqual({ count: 0, error: null });
  });

  it("says a notification could not be marked read when the id is not one", async () => {
    const answer = await callAction(route, app.trader, "/profile?panel=notifications", {
      intent: PROFILE_INTENT.markRead,
      id: "abc",
    });
    expect(answer).toMatchObject({
      location: "/profile?panel=notifications",
      toast: { type: "error", text: messages.markReadFailed },
    });
  });

  it("clears the list, and the open panel shows it empty", async () => {
    await notifyTrader("Third");
    expect((await profile("/profile?panel=notifications")).panel!.items).toHaveLength(3);
    const answer = await callAction(route, app.trader, "/profile?panel=notifications", {
      intent: PROFILE_INTENT.clearAll,
    });
    expect(answer.toast).toEqual({ type: "success", text: messages.allCleared });
    const page = await callLoader(route, app.trader, "/profile?panel=notifications");
    expect((page.data as { panel: { items: unknown[] } }).panel.items).toEqual([]);
  });

  it("refuses a system setting to a trader, and lets the admin flip it", async () => {
    const key = "auto_refresh_enabled";
    const refused = await callAction(route, app.trader, "/profile", { intent: PROFILE_INTENT.config, key, value: "0" });
    expect(refused.toast).toEqual({ type: "error", text: messages.noSystemSettingsPermission });

    const before = (await callLoader(route, app.admin, "/profile")).data as { config: Record<string, boolean | null> };
    const on = before.config[key] === true;
    const done = await callAction(route, app.admin, "/profile", {
      intent: PROFILE_INTENT.config,
      key,
      value: on ? "0" : "1",
    });
    expect(done).toMatchObject({ status: 302, location: "/profile", toast: null });
    const after = (await callLoader(route, app.admin, "/profile")).data as { config: Record<string, boolean | null> };
    expect(after.config[key]).toBe(!on);
    await callAction(route, app.admin, "/profile", { intent: PROFILE_INTENT.config, key, value: on ? "1" : "0" });
  });

  it("keeps a refused alert setting on the form with its error, and saves a good one", async () => {
    const fields = { profit_share: "150", strike_distance: "5", earnings_days: "3" };
    const refused = await callAction(route, app.trader, "/profile", {
      intent: PROFILE_INTENT.alertSettings,
      ...fields,
    });
    expect(refused.status).toBe(400);
    const reply = (refused.data as { alertSettings: { initialValue: object; error: Record<string, string[]> } })
      .alertSettings;
    expect(reply.initialValue).toMatchObject(fields);
    expect(Object.keys(reply.error)).toEqual(["profit_share"]);

    const saved = await callAction(route, app.trader, "/profile", {
      intent: PROFILE_INTENT.alertSettings,
      ...fields,
      profit_share: "60",
    });
    expect(saved).toMatchObject({ status: 302, toast: { type: "success", text: ALERT_SETTINGS_TEXT.saved } });
    const page = (await callLoader(route, app.trader, "/profile")).data as { alertSettings: { profit_share: number } };
    expect(page.alertSettings.profit_share).toBe(0.6);
  });

  it("answers the support form: errors kept with the typed values, then a toast once sent", async () => {
    const refused = await callAction(route, app.trader, "/profile?dialog=support", {
      intent: PROFILE_INTENT.support,
      message: "Hello there",
    });
    expect(refused.status).toBe(400);
    const reply = (
      refused.data as { support: { initialValue: Record<string, unknown>; error: Record<string, string[]> } }
    ).support;
    expect(reply.initialValue).toMatchObject({ message: "Hello there" });
    const noSubject = SupportSchema.shape.subject.safeParse(undefined).error!.issues[0]!.message;
    expect(reply.error.subject).toEqual([noSubject]);

    const sent = await callAction(route, app.trader, "/profile?dialog=support", {
      intent: PROFILE_INTENT.support,
      subject: "technical",
      message: "Hello there",
    });
    expect(sent).toMatchObject({
      location: "/profile",
      toast: { type: "success", text: messages.supportSubmitted },
    });
  });

  it("answers a placeholder's tap without the scripts with its 'coming soon' toast, back to the same view", async () => {
    for (const feature of ["Change Password", "FAQ & Help Center", "Tax Documents"]) {
      const answer = await callAction(route, app.trader, "/profile?panel=notifications&filter=unread", {
        intent: PROFILE_INTENT.comingSoon,
        feature,
      });
      expect(answer).toMatchObject({
        status: 302,
        location: "/profile?panel=notifications&filter=unread",
        toast: { type: "info", text: `${feature} is coming soon.` },
      });
    }
    // A button the page does not have gets the generic error, not "coming soon".
    const answer = await callAction(route, app.trader, "/profile", {
      intent: PROFILE_INTENT.comingSoon,
      feature: "Delete Everything",
    });
    expect(answer).toMatchObject({ status: 302, location: "/profile" });
    expect(answer.toast).toEqual({ type: "error", text: messages.unexpected });
  });

  it("tells an unknown form apart with the generic error", async () => {
    const answer = await callAction(route, app.trader, "/profile", { intent: "nonsense" });
    expect(answer.toast).toEqual({ type: "error", text: messages.unexpected });
  });
});
