import * as calls from "#contract/calls.ts";
import type { NotificationItem } from "#contract/entities.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { isAdmin, NOT_AUTHORIZED, requireSelfOrAdmin } from "#provider/auth/callers.ts";
import { forbidden, notFound } from "#provider/http/errors.ts";
import { notifyUsers } from "#provider/push/notify.ts";
import {
  clearNotifications,
  latestNotifications,
  markAllRead,
  markCopyRead,
  notificationCopy,
  unreadCount,
} from "#provider/store/notifications.ts";

/** The newest this many are listed; older ones stay counted but are not sent to a phone. */
const LIST_LIMIT = 200;

/** docs/product.md#calls-devices: each user's list, read state, and the unread count. */
export function notificationRoutes(router: Router, context: ProviderContext): void {
  const { db } = context;

  router.on(calls.listNotifications, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    const rows = await latestNotifications(db, params.userId, LIST_LIMIT);
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
    const row = await notificationCopy(db, params.id);
    // Someone else's notification answers like a missing one, so ids cannot be probed.
    if (!row || (row.user_id !== caller.id && !isAdmin(caller))) throw notFound();
    await markCopyRead(db, params.id);
    return { message: "Notification marked as read" };
  });

  router.on(calls.markAllNotificationsRead, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    await markAllRead(db, params.userId);
    return { message: "All notifications marked as read" };
  });

  router.on(calls.clearAllNotifications, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    await clearNotifications(db, params.userId);
    return { message: "All notifications cleared" };
  });

  router.on(calls.unreadCount, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    return { unread_count: await unreadCount(db, params.userId) };
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
