import * as calls from "#contract/calls.ts";
import type { NotificationItem } from "#contract/entities.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { isAdmin, NOT_AUTHORIZED, requireSelfOrAdmin } from "#provider/auth/callers.ts";
import { forbidden, notFound } from "#provider/http/errors.ts";
import { notifyUsers } from "#provider/push/notify.ts";

/** The newest this many are listed; older ones stay counted but are not sent to a phone. */
const LIST_LIMIT = 200;

/** docs/product.md#calls-devices: each user's list, read state, and the unread count. */
export function notificationRoutes(router: Router, context: ProviderContext): void {
  const { db } = context;

  router.on(calls.listNotifications, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    const rows = await db
      .selectFrom("user_notifications as un")
      .innerJoin("notifications as n", "n.id", "un.notification_id")
      .select(["un.id", "un.read", "un.created_at", "n.type", "n.title", "n.body", "n.action_required", "n.url"])
      .where("un.user_id", "=", params.userId)
      .orderBy("un.created_at", "desc")
      .orderBy("un.id", "desc")
      .limit(LIST_LIMIT)
      .execute();
    return rows.map((r): NotificationItem => ({
      id: r.id,
      read: r.read === 1 ? 1 : 0,
      created_at: new Date(r.created_at).toISOString(),
      notification: {
        type: r.type,
        title: r.title,
        body: r.body,
        action_required: r.action_required === 1 ? 1 : 0,
        url: r.url,
      },
    }));
  });

  router.on(calls.markNotificationRead, async ({ caller, params }) => {
    const row = await db
      .selectFrom("user_notifications")
      .select(["id", "user_id"])
      .where("id", "=", params.id)
      .executeTakeFirst();
    // Someone else's notification answers like a missing one, so ids cannot be probed.
    if (!row || (row.user_id !== caller.id && !isAdmin(caller))) throw notFound();
    await db.updateTable("user_notifications").set({ read: 1 }).where("id", "=", params.id).execute();
    return { message: "Notification marked as read" };
  });

  router.on(calls.markAllNotificationsRead, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    await db
      .updateTable("user_notifications")
      .set({ read: 1 })
      .where("user_id", "=", params.userId)
      .where("read", "=", 0)
      .execute();
    return { message: "All notifications marked as read" };
  });

  router.on(calls.clearAllNotifications, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    await db.transaction().execute(async (tx) => {
      const removed = await tx
        .deleteFrom("user_notifications")
        .where("user_id", "=", params.userId)
        .returning("notification_id")
        .execute();
      const ids = [...new Set(removed.map((r) => r.notification_id))];
      if (ids.length === 0) return;
      // A notification nobody has any more is dropped with its last copy.
      await tx
        .deleteFrom("notifications")
        .where("id", "in", ids)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(selectFrom("user_notifications").select("id").whereRef("notification_id", "=", "notifications.id")),
          ),
        )
        .execute();
    });
    return { message: "All notifications cleared" };
  });

  router.on(calls.unreadCount, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    const row = await db
      .selectFrom("user_notifications")
      .select(({ fn }) => fn.countAll<number>().as("count"))
      .where("user_id", "=", params.userId)
      .where("read", "=", 0)
      .executeTakeFirstOrThrow();
    return { unread_count: Number(row.count) };
  });

  router.on(calls.sendNotification, async ({ caller, body }) => {
    if (!isAdmin(caller)) throw forbidden(NOT_AUTHORIZED);
    const result = await notifyUsers(context, body.user_ids, {
      type: body.type,
      title: body.title,
      body: body.body,
      url: body.url ?? null,
    });
    return {
      notification_id: result.notificationId,
      recipients: result.recipients.length,
      sent: result.sent,
      removed: result.removed,
      failed: result.failed,
    };
  });
}
