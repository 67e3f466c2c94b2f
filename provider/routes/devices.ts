import * as calls from "#contract/calls.ts";
import type { UserDevice } from "#contract/entities.ts";
import { parseWebPushToken } from "#contract/push.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { requireSelfOrAdmin } from "#provider/auth/callers.ts";
import { notFound, unprocessable } from "#provider/http/errors.ts";
import { pushHostAllowed } from "#provider/push/hosts.ts";

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
      // One browser, one owner: whoever signs in on it last gets its pushes, never the one before.
      await tx
        .deleteFrom("devices")
        .where("fcm_token", "=", body.fcm_token)
        .where("user_id", "<>", params.userId)
        .execute();
      return tx
        .insertInto("devices")
        .values({ user_id: params.userId, fcm_token: body.fcm_token, ...values })
        .onConflict((oc) => oc.columns(["user_id", "fcm_token"]).doUpdateSet({ ...values, updated_at: new Date() }))
        .returningAll()
        .executeTakeFirstOrThrow();
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
