import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";

/**
 * The devices table (docs/product.md#calls-devices): each user's browsers registered for pushes,
 * keyed by (user_id, fcm_token). The route checks who may register and what a token may be.
 */

/** The advisory lock key of a user's device list (with the user id). */
const DEVICES_LOCK = 1_700_040;

/** What a registration stores besides its owner and token. */
export type DeviceValues = {
  device_type: string;
  browser: string;
  os: string;
  ip_address: string;
  user_agent: string;
  app_version: string;
  notification_opt_in: string;
};

/**
 * Saves (or refreshes) one browser of a user, in one transaction, and keeps only the `cap` the user
 * registered (or refreshed) last.
 */
export function registerDevice(db: Db, userId: number, fcmToken: string, values: DeviceValues, cap: number) {
  return db.transaction().execute(async (tx) => {
    // One registration of a user at a time, so the cap below holds for registrations sent at once.
    await sql`SELECT pg_advisory_xact_lock(${DEVICES_LOCK}, ${userId})`.execute(tx);
    // One browser, one owner: whoever signs in on it last gets its pushes, never the one before.
    await tx.deleteFrom("devices").where("fcm_token", "=", fcmToken).where("user_id", "<>", userId).execute();
    const saved = await tx
      .insertInto("devices")
      .values({ user_id: userId, fcm_token: fcmToken, ...values })
      .onConflict((oc) => oc.columns(["user_id", "fcm_token"]).doUpdateSet({ ...values, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .deleteFrom("devices")
      .where("user_id", "=", userId)
      .where("id", "not in", (eb) =>
        eb
          .selectFrom("devices")
          .select("id")
          .where("user_id", "=", userId)
          .orderBy("updated_at", "desc")
          .orderBy("id", "desc")
          .limit(cap),
      )
      .execute();
    return saved;
  });
}

/** One user's registration of a token, or undefined. */
export function deviceOfUser(db: Db, userId: number, fcmToken: string) {
  return db
    .selectFrom("devices")
    .selectAll()
    .where("user_id", "=", userId)
    .where("fcm_token", "=", fcmToken)
    .executeTakeFirst();
}
