import type { Agent } from "node:https";
import webpush from "web-push";
import { parseWebPushToken, type PushMessage } from "#contract/push.ts";
import type { VapidKeys } from "./vapid.ts";

/**
 * - sent: the push service accepted it;
 * - gone: the subscription no longer exists (404/410, or FCM's unregistered token): forget the device;
 * - failed: a problem worth a log line (push service down, bad token) that may pass.
 */
export type SendOutcome =
  { result: "sent" } | { result: "gone"; status: number } | { result: "failed"; reason: string };

export interface PushSender {
  /** The application server key browsers subscribe with. */
  readonly publicKey: string;
  send(token: string, message: PushMessage): Promise<SendOutcome>;
}

/** Sends to an FCM registration token (when Firebase messaging is configured); see fcm.ts. */
export type FcmSend = (token: string, message: PushMessage) => Promise<SendOutcome>;

export interface PushSenderOptions {
  vapid: VapidKeys;
  /** TLS settings for reaching push services (a private CA, a test endpoint's certificate). */
  agent?: Agent | undefined;
  /** Seconds a push service keeps an undelivered message. Alerts are stale after a day. */
  ttlSeconds?: number | undefined;
  fcm?: FcmSend | undefined;
}

const TIMEOUT_MS = 10_000;

/** Web Push (RFC 8030/8291/8292, aes128gcm, VAPID) by default; FCM tokens through `fcm` when given. */
export function createPushSender(options: PushSenderOptions): PushSender {
  const { vapid } = options;
  return {
    publicKey: vapid.publicKey,
    async send(token, message) {
      // A device token is a Web Push subscription (JSON) or an FCM registration token (anything else).
      const subscription = parseWebPushToken(token);
      if (!subscription) {
        if (token.trimStart().startsWith("{")) return { result: "failed", reason: "not a valid Web Push subscription" };
        if (options.fcm) return options.fcm(token, message);
        return { result: "failed", reason: "not a Web Push subscription and FCM is not configured" };
      }
      try {
        await webpush.sendNotification(subscription, JSON.stringify(message), {
          vapidDetails: vapid,
          contentEncoding: "aes128gcm",
          TTL: options.ttlSeconds ?? 24 * 3600,
          urgency: message.type === "alert" ? "high" : "normal",
          timeout: TIMEOUT_MS,
          agent: options.agent,
        });
        return { result: "sent" };
      } catch (error) {
        if (error instanceof webpush.WebPushError) {
          if (error.statusCode === 404 || error.statusCode === 410) return { result: "gone", status: error.statusCode };
          return { result: "failed", reason: `push service answered ${error.statusCode}` };
        }
        return { result: "failed", reason: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
