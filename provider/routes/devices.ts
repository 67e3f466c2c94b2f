import * as calls from "#contract/calls.ts";
import type { UserDevice } from "#contract/entities.ts";
import { parseWebPushToken } from "#contract/push.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { requireSelfOrAdmin } from "#provider/auth/callers.ts";
import { notFound, unprocessable } from "#provider/http/errors.ts";
import { pushHostAllowed } from "#provider/push/hosts.ts";
import { deviceOfUser, registerDevice } from "#provider/store/devices.ts";

/**
 * Browsers one user may register for pushes; registering one more drops the one registered (or
 * refreshed) longest ago. Without a cap, 500 devices of one user made every notification 500 push
 * attempts (issue 40, finding 8; README "Security and limits").
 */
export const DEVICES_PER_USER = 20;

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
    const row = await registerDevice(db, params.userId, body.fcm_token, values, DEVICES_PER_USER);
    return deviceOf(row);
  });

  router.on(calls.getDevice, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    const row = await deviceOfUser(db, params.userId, params.fcmToken);
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
