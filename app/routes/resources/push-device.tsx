import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/push-device";
import * as calls from "#contract/calls.ts";
import { UserDevice } from "#contract/entities.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";

/**
 * The push toggle's device record (docs/product.md#states-push, #calls-devices). JSON in and out,
 * called from the browser, which alone knows its device token (the push subscription).
 */

/** GET ?token=…: whether this browser's device is opted in. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const token = new URL(request.url).searchParams.get("token");
  if (!token) return data({ opt_in: false as boolean, error: null as string | null });
  try {
    const device = await userCall(context, calls.getDevice, { params: { userId: user.id, fcmToken: token } });
    return data({ opt_in: device.notification_opt_in === "1", error: null });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.status === 404) return data({ opt_in: false, error: null });
    return data({ opt_in: false, error: error.message }, { status: error.status || 502 });
  }
}

const DeviceBody = UserDevice.pick({
  fcm_token: true,
  browser: true,
  os: true,
  user_agent: true,
  app_version: true,
  notification_opt_in: true,
});

/** POST the device record with notification_opt_in '1' or '0'; ip_address is 'Unknown' (docs/product.md#entities-device). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const parsed = DeviceBody.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return data({ ok: false as const, status: 422, error: z.prettifyError(parsed.error) }, { status: 422 });
  }
  try {
    const device = await userCall(context, calls.registerDevice, {
      params: { userId: user.id },
      body: { ...parsed.data, device_type: "web", ip_address: "Unknown" },
    });
    return data({ ok: true as const, opt_in: device.notification_opt_in === "1" });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return data({ ok: false as const, status: error.status, error: error.message }, { status: error.status || 502 });
  }
}
