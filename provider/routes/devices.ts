import { sql } from "kysely";
import * as calls from "#contract/calls.ts";
import type { UserDevice } from "#contract/entities.ts";
import { parseWebPushToken } from "#contract/push.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { requireSelfOrAdmin } from "#provider/auth/callers.ts";
import { notFound, unprocessable } from "#provider/http/errors.ts";
import { pushHostAllowed } from "#provider/push/hosts.ts";

/**
 * Browsers one user may register for pushes; registering one more drops the one registered (or
 * refreshed) longest ago. Without a cap, 500 devices of one user made every notification 500 push
 * attempts (issue 40, finding 8; README "Security and limits").
 */
export const DEVICES_PER_USER = 20;
/** The advisory lock key of a user's device list (with the user id). */
const DEVICES_LOCK = 1_700_040;

/** docs/product.md#calls-devices: the push opt-in of each browser, keyed by its token (a Web Push subscription). */
export function deviceRoutes(router: Router, { db, push, pushAllowedHosts }: ProviderContext): void {
  router.on(calls.pushPublicKey, async () => ({ public_key: push.publicKey }));

  router.on(calls.registerDevice, async ({ caller, params, body }) => {
    requireSelfOrAdmin(caller, params.userId);
    if (body.fcm_token.trimStart().startsWith("{")) {
      const subscription = parseWebPushToken(body.fcm_token);
      if (!subscription) throw unprocessable("fcm_token: not a valid push subscription");
      // The provider posts to this URL: only push services, never an arbitrary (internal) host.
      const url = new URL(subscription.endpoint);
      if (url.protocol !== "https:" || !pushHostAllowed(url.hostname, pushAllowedHosts)) {
        throw unprocessable("fcm_token: this push service is not allowed");
      }
    }
    const values = {
      device_type: body.device_type,
      browser: body.browser,
      os: body.os,
      ip_address: body.ip_address,
      user_agent: body.user_agent,
      app_version: body.app_version,
      notification_opt_in: body.notification_opt_in,
    };
    const row = await db.transaction().execute(async (tx) => {
      // One registration of a user at a time, so the cap below holds for registrations sent at once.
      await sql`SELECT pg_advisory_xact_lock(${DEVICES_LOCK}, ${params.userId})`.execute(tx);
      // One browser, one owner: whoever signs in on it last gets its pushes, never the one before.
      await tx
        .deleteFrom("devices")
        .where("fcm_token", "=", body.fcm_token)
        .where("user_id", "<>", params.userId)
        .execute();
      const saved = await tx
        .insertInto("devices")
        .values({ user_id: params.userId, fcm_token: body.fcm_token, ...values })
        .onConflict((oc) => oc.columns(["user_id", "fcm_token"]).doUpdateSet({ ...values, updated_at: new Date() }))
        .returningAll()
        .executeTakeFirstOrThrow();
      await tx
        .deleteFrom("devices")
        .where("user_id", "=", params.userId)
        .where("id", "not in", (eb) =>
          eb
            .selectFrom("devices")
            .select("id")
            .where("user_id", "=", params.userId)
            .orderBy("updated_at", "desc")
            .orderBy("id", "desc")
            .limit(DEVICES_PER_USER),
        )
        .execute();
      return saved;
    });
    return deviceOf(row);
  });

  router.on(calls.getDevice, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    const row = await db
      .selectFrom("devices")
      .selectAll()
      .where("user_id", "=", params.userId)
      .where("fcm_token", "=", params.fcmToken)
      .executeTakeFirst();
    if (!row) throw notFound();
    return deviceOf(row);
  });
}

function deviceOf(row: {
  fcm_token: string;
  browser: string;
  os: string;
  ip_address: string;
  user_agent: string;
  app_version: string;
  notification_opt_in: string;
}): UserDevice {
  return {
    device_type: "web",
    fcm_token: row.fcm_token,
    browser: row.browser,
    os: row.os,
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    app_version: row.app_version,
    notification_opt_in: row.notification_opt_in === "1" ? "1" : "0",
  };
}
