import type { ProviderContext } from "#provider/context.ts";
import type { Db } from "#provider/db/client.ts";
import type { PushMessage } from "#contract/push.ts";

export interface Notice {
  /** trade, alert or success; anything else is listed as system (docs/product.md#entities-notification). */
  type: string;
  title: string;
  body: string;
  /** The screen it leads to, a same-origin path such as /insights or /user-stocks. */
  url?: string | null | undefined;
  /** Shown as needing action (docs/product.md#entities-notification). */
  actionRequired?: boolean | undefined;
}

export interface NotifyResult {
  /** The notifications row, or null when there was nobody to notify. */
  notificationId: number | null;
  /** Each recipient's user_notifications row (what the panel lists and marks read). */
  recipients: { userId: number; userNotificationId: number }[];
  sent: number;
  /** Devices forgotten because their push service said the subscription is gone (404/410). */
  removed: number;
  failed: number;
}

/** Pushes in flight at once: enough to be quick, few enough not to flood one push service. */
const CONCURRENCY = 8;

/**
 * Notifies users: stores one notification and a row in each user's list (the profile's panel),
 * then sends a push to every device of theirs that opted in. Subscriptions the push service
 * reports gone are deleted. Never throws for a push that fails; the stored notification stands.
 *
 *   await notifyUsers(context, [userId], { type: "alert", title: "AAPL crossed your buy level",
 *     body: "AAPL at 180.00 is at or below your 1st level 182", url: "/user-stocks" });
 */
export async function notifyUsers(
  context: Pick<ProviderContext, "db" | "push">,
  userIds: Iterable<number>,
  notice: Notice,
): Promise<NotifyResult> {
  const stored = await context.db.transaction().execute((tx) => storeNotice(tx, userIds, notice));
  return pushNotice(context, stored, notice);
}

export interface StoredNotice {
  notificationId: number | null;
  recipients: { userId: number; userNotificationId: number }[];
}

/**
 * Stores the notification and each user's row with `db` (a transaction, so a caller can store it
 * together with its own rows, e.g. the position alert that claims it).
 */
export async function storeNotice(db: Db, userIds: Iterable<number>, notice: Notice): Promise<StoredNotice> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return { notificationId: null, recipients: [] };
  const users = await db.selectFrom("users").select("id").where("id", "in", ids).execute();
  if (users.length === 0) return { notificationId: null, recipients: [] };
  const notification = await db
    .insertInto("notifications")
    .values({
      type: notice.type,
      title: notice.title,
      body: notice.body,
      url: notice.url ?? null,
      action_required: notice.actionRequired ? 1 : 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const rows = await db
    .insertInto("user_notifications")
    .values(users.map((u) => ({ user_id: u.id, notification_id: notification.id })))
    .returning(["id", "user_id"])
    .execute();
  return {
    notificationId: notification.id,
    recipients: rows.map((r) => ({ userId: r.user_id, userNotificationId: r.id })),
  };
}

/** Pushes a stored notice to its recipients' opted-in devices; forgets the ones gone. */
export async function pushNotice(
  context: Pick<ProviderContext, "db" | "push">,
  stored: StoredNotice,
  notice: Notice,
): Promise<NotifyResult> {
  const { db, push } = context;
  if (stored.notificationId === null || stored.recipients.length === 0)
    return { notificationId: null, recipients: [], sent: 0, removed: 0, failed: 0 };

  const devices = await db
    .selectFrom("devices")
    .select(["id", "user_id", "fcm_token"])
    .where(
      "user_id",
      "in",
      stored.recipients.map((r) => r.userId),
    )
    .where("notification_opt_in", "=", "1")
    .execute();
  const rowOf = new Map(stored.recipients.map((r) => [r.userId, r.userNotificationId]));

  const result: NotifyResult = { ...stored, sent: 0, removed: 0, failed: 0 };
  const gone: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < devices.length) {
      const device = devices[next++]!;
      const message: PushMessage = {
        type: notice.type,
        title: notice.title,
        body: notice.body,
        url: notice.url ?? null,
        notification_id: rowOf.get(device.user_id) ?? null,
      };
      const outcome = await push.send(device.fcm_token, message);
      if (outcome.result === "sent") result.sent++;
      else if (outcome.result === "gone") gone.push(device.id);
      else {
        result.failed++;
        console.warn(`[push] device ${device.id} of user ${device.user_id}: ${outcome.reason}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, devices.length) }, worker));

  if (gone.length) {
    await db.deleteFrom("devices").where("id", "in", gone).execute();
    result.removed = gone.length;
  }
  return result;
}
