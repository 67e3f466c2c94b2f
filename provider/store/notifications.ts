import type { Db } from "#provider/db/client.ts";

/**
 * Each user's notifications (docs/product.md#calls-devices): user_notifications holds one copy per
 * recipient of a row in notifications. The route decides who may reach a copy; push/notify.ts writes them.
 */

/** A user's newest copies, newest first, with the notification they copy. */
export function latestNotifications(db: Db, userId: number, limit: number) {
  return db
    .selectFrom("user_notifications as un")
    .innerJoin("notifications as n", "n.id", "un.notification_id")
    .select(["un.id", "un.read", "un.created_at", "n.type", "n.title", "n.body", "n.action_required", "n.url"])
    .where("un.user_id", "=", userId)
    .orderBy("un.created_at", "desc")
    .orderBy("un.id", "desc")
    .limit(limit)
    .execute();
}

/** One copy's owner, or undefined when there is no such copy. */
export function notificationCopy(db: Db, id: number) {
  return db.selectFrom("user_notifications").select(["id", "user_id"]).where("id", "=", id).executeTakeFirst();
}

export async function markCopyRead(db: Db, id: number): Promise<void> {
  await db.updateTable("user_notifications").set({ read: 1 }).where("id", "=", id).execute();
}

export async function markAllRead(db: Db, userId: number): Promise<void> {
  await db
    .updateTable("user_notifications")
    .set({ read: 1 })
    .where("user_id", "=", userId)
    .where("read", "=", 0)
    .execute();
}

/** Removes all of a user's copies in one transaction, and each notification nobody has any more. */
export async function clearNotifications(db: Db, userId: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const removed = await tx
      .deleteFrom("user_notifications")
      .where("user_id", "=", userId)
      .returning("notification_id")
      .execute();
    const ids = [...new Set(removed.map((r) => r.notification_id))];
    if (ids.length === 0) return;
    // A notification nobody has any more is dropped with its last copy.
    await tx
      .deleteFrom("notifications")
      .where("id", "in", ids)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("user_notifications").select("id").whereRef("notification_id", "=", "notifications.id"))),
      )
      .execute();
  });
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom("user_notifications")
    .select(({ fn }) => fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("read", "=", 0)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
