import { createPrivateKey, sign } from "node:crypto";
import { z } from "zod";
import { safeAppPath, type PushMessage } from "#contract/push.ts";
import type { FcmServiceAccount } from "./fcm-account.ts";
import type { FcmSend, SendOutcome } from "./sender.ts";

/**
 * Firebase Cloud Messaging, HTTP v1 API: a service account signs in with the OAuth 2.0 JWT bearer
 * flow (RFC 7523) and posts each message to projects/{id}/messages:send with the access token.
 */

const FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
export const DEFAULT_FCM_API_URL = "https://fcm.googleapis.com";
export const DEFAULT_FCM_TOKEN_URL = "https://oauth2.googleapis.com/token";

export interface FcmSettings extends FcmServiceAccount {
  /** FCM_API_URL: where messages:send lives; fcm.googleapis.com unless a test points elsewhere. */
  apiUrl?: string | undefined;
  /** FCM_TOKEN_URL: the OAuth token endpoint, also the assertion's audience. */
  tokenUrl?: string | undefined;
}

export interface FcmSenderOptions {
  /** The web app's public URL: a notification's link is the message's path on it (FCM wants https). */
  appUrl: string;
  /** Seconds FCM keeps an undelivered message, as for Web Push. */
  ttlSeconds?: number | undefined;
  timeoutMs?: number | undefined;
  /** Milliseconds since the epoch (tests move the clock). */
  now?: (() => number) | undefined;
}

const TIMEOUT_MS = 10_000;
/** A failed sign-in is not retried for every device of a notification: once per this long. */
const SIGN_IN_RETRY_MS = 30_000;

const TokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive(),
});

const FcmErrorBody = z.object({
  error: z.object({
    code: z.number().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
    details: z
      .array(
        z.looseObject({
          errorCode: z.string().optional(),
          fieldViolations: z.array(z.looseObject({ field: z.string().optional() })).optional(),
        }),
      )
      .optional(),
  }),
});

export function createFcmSender(settings: FcmSettings, options: FcmSenderOptions): FcmSend {
  const apiUrl = (settings.apiUrl ?? DEFAULT_FCM_API_URL).replace(/\/$/, "");
  const tokenUrl = settings.tokenUrl ?? DEFAULT_FCM_TOKEN_URL;
  const sendUrl = `${apiUrl}/v1/projects/${encodeURIComponent(settings.projectId)}/messages:send`;
  const key = createPrivateKey(settings.privateKey);
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const ttl = String(options.ttlSeconds ?? 24 * 3600);

  let cached: { token: string; refreshAt: number } | null = null;
  let pending: Promise<string> | null = null;
  let signInFailure: { reason: string; until: number } | null = null;

  function assertion(): string {
    const iat = Math.floor(now() / 1000);
    const header = { alg: "RS256", typ: "JWT", ...(settings.privateKeyId ? { kid: settings.privateKeyId } : {}) };
    const claims = { iss: settings.clientEmail, scope: FCM_SCOPE, aud: tokenUrl, iat, exp: iat + 3600 };
    const unsigned = `${b64(header)}.${b64(claims)}`;
    return `${unsigned}.${sign("sha256", Buffer.from(unsigned), key).toString("base64url")}`;
  }

  async function signIn(): Promise<string> {
    const response = await fetch(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: assertion(),
      }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) {
      // Google answers {"error":"invalid_grant","error_description":"Invalid JWT Signature."}.
      const body = safeJson(text) as { error?: unknown; error_description?: unknown } | null;
      const what = [body?.error, body?.error_description].filter((v) => typeof v === "string").join(": ");
      throw new Error(`FCM sign-in answered ${response.status}${what ? ` ${clip(what)}` : ""}`);
    }
    const parsed = TokenAnswer.safeParse(safeJson(text));
    if (!parsed.success) throw new Error("FCM sign-in answered without an access token");
    signInFailure = null;
    const lifetimeMs = parsed.data.expires_in * 1000;
    // Renewed a little before it runs out (5 minutes for the usual hour), never used past expiry.
    cached = { token: parsed.data.access_token, refreshAt: now() + lifetimeMs - Math.min(300_000, lifetimeMs / 10) };
    return parsed.data.access_token;
  }

  /** The cached access token, or one sign-in shared by every send waiting for it. */
  async function accessToken(): Promise<string> {
    if (cached && now() < cached.refreshAt) return cached.token;
    if (signInFailure && now() < signInFailure.until) throw new Error(signInFailure.reason);
    pending ??= signIn()
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        signInFailure = { reason, until: now() + SIGN_IN_RETRY_MS };
        throw new Error(reason);
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  }

  function post(accessToken: string, body: string): Promise<Response> {
    return fetch(sendUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  return async (token, message): Promise<SendOutcome> => {
    const body = JSON.stringify({ message: fcmMessage(token, message, options.appUrl, ttl) });
    try {
      let bearer = await accessToken();
      let response = await post(bearer, body);
      if (response.status === 401) {
        // Revoked or expired early: sign in again, once.
        await response.body?.cancel();
        if (cached?.token === bearer) cached = null;
        bearer = await accessToken();
        response = await post(bearer, body);
      }
      if (response.ok) {
        await response.body?.cancel();
        return { result: "sent" };
      }
      const parsed = FcmErrorBody.safeParse(safeJson(await response.text()));
      const error = parsed.success ? parsed.data.error : undefined;
      if (isDeadToken(response.status, error)) return { result: "gone", status: response.status };
      const what = [error?.status, error?.message].filter(Boolean).join(": ");
      return { result: "failed", reason: `FCM answered ${response.status}${what ? ` ${clip(what)}` : ""}` };
    } catch (error) {
      return { result: "failed", reason: error instanceof Error ? error.message : String(error) };
    }
  };
}

/**
 * The token will never work again: UNREGISTERED (404, the app was uninstalled or the token
 * expired), or INVALID_ARGUMENT (400) about the token itself. Any other 400 is our message's fault
 * and keeps the device.
 */
function isDeadToken(status: number, error: z.infer<typeof FcmErrorBody>["error"] | undefined): boolean {
  if (!error) return false;
  const details = error.details ?? [];
  if (details.some((d) => d.errorCode === "UNREGISTERED")) return true;
  if (status !== 400 || error.status !== "INVALID_ARGUMENT") return false;
  const aboutToken = details.some((d) => d.fieldViolations?.some((v) => v.field === "message.token"));
  return aboutToken || /registration token/i.test(error.message ?? "");
}

/** The FCM v1 message for a device: the same title, body and screen as the Web Push payload. */
function fcmMessage(token: string, message: PushMessage, appUrl: string, ttl: string) {
  const path = safeAppPath(message.url);
  const link = new URL(path, `${appUrl.replace(/\/$/, "")}/`);
  // FCM's data values are strings only.
  const data: Record<string, string> = { type: message.type, title: message.title, body: message.body, url: path };
  if (message.notification_id != null) data.notification_id = String(message.notification_id);
  return {
    token,
    notification: { title: message.title, body: message.body },
    data,
    webpush: {
      headers: { TTL: ttl, Urgency: message.type === "alert" ? "high" : "normal" },
      // FCM refuses a link that is not https (a plain-http development app); data.url still names the screen.
      ...(link.protocol === "https:" ? { fcm_options: { link: link.toString() } } : {}),
    },
  };
}

function b64(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
