import { z } from "zod";

/**
 * The JSON a push message carries, from the provider's sender to the service worker
 * (app/service-worker.ts), and from the worker to an open page for the foreground toast.
 */
export const PushMessage = z.object({
  /** trade, alert, success; anything else is shown as system (docs/product.md#entities-notification). */
  type: z.string().max(40),
  title: z.string().max(200),
  body: z.string().max(1000),
  /** The screen tapping the notification opens, same-origin path, e.g. /insights. */
  url: z.string().max(500).nullable(),
  /** The user_notifications row this push announced, when stored. */
  notification_id: z.number().int().positive().nullable().optional(),
});
export type PushMessage = z.infer<typeof PushMessage>;

export { safeAppPath } from "./push-routing.ts";

/** A Web Push subscription as `PushSubscription.toJSON()` gives it; stored as the device token. */
const WebPushSubscription = z.object({
  endpoint: z.string().url(),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1), auth: z.string().min(1) }),
});
type WebPushSubscription = z.infer<typeof WebPushSubscription>;

/** A device token is a Web Push subscription (JSON) or, when not JSON, an FCM registration token. */
export function parseWebPushToken(token: string): WebPushSubscription | null {
  if (!token.trimStart().startsWith("{")) return null;
  try {
    const parsed = WebPushSubscription.safeParse(JSON.parse(token));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
