import { randomBytes, verify, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Google's OAuth token endpoint and the FCM HTTP v1 API (the part of the
 * internet these tests cannot reach), strict where Google is: the service account's JWT assertion
 * must carry a valid RS256 signature by its key and the right iss/aud/scope/iat/exp, and
 * messages:send takes only an access token it issued, for its project, with string data values.
 */
export interface FcmFakeOptions {
  projectId: string;
  clientEmail: string;
  /** The service account's public key: assertions are verified with it. */
  publicKey: KeyObject;
  /** Lifetime of the access tokens it issues, in seconds. */
  expiresIn?: number;
}

export interface ReceivedFcmMessage {
  token: string;
  /** The whole `message` object as posted. */
  message: {
    token: string;
    notification?: { title?: string; body?: string };
    data?: Record<string, string>;
    webpush?: { headers?: Record<string, string>; fcm_options?: { link?: string } };
  };
  accessToken: string;
}

export interface FcmFake {
  origin: string;
  /** For FCM_API_URL and FCM_TOKEN_URL. */
  apiUrl: string;
  tokenUrl: string;
  received: ReceivedFcmMessage[];
  /** Every sign-in: its outcome and, when refused, why. */
  signIns: { ok: boolean; reason?: string }[];
  /** From now on this token answers 404 UNREGISTERED, as after the app is uninstalled. */
  unregister(token: string): void;
  /** Answers this status (500, 429, 503…) for this token until cleared with null. */
  failWith(token: string, status: number | null): void;
  /** Forgets every access token issued so far: the next send answers 401. */
  revokeAccessTokens(): void;
  /** Resolves with the next message for `token` (or one already received and not taken). */
  next(token: string, timeoutMs?: number): Promise<ReceivedFcmMessage>;
  close(): Promise<void>;
}

export const FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
const TOKEN_PATH = "/token";

export async function startFcmFake(options: FcmFakeOptions): Promise<FcmFake> {
  const issued = new Set<string>();
  const unregistered = new Set<string>();
  const failures = new Map<string, number>();
  const received: ReceivedFcmMessage[] = [];
  const taken = new Set<ReceivedFcmMessage>();
  const signIns: FcmFake["signIns"] = [];
  const waiters: { token: string; resolve: (m: ReceivedFcmMessage) => void }[] = [];
  let origin = "";

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }
  function fcmError(res: ServerResponse, code: number, status: string, message: string, details: unknown[] = []) {
    send(res, code, { error: { code, message, status, details } });
  }

  /** Google's checks on a JWT bearer assertion (RFC 7523), or the reason it refuses it. */
  function checkAssertion(assertion: string): string | null {
    const parts = assertion.split(".");
    if (parts.length !== 3) return "not a JWT";
    const [head, payload, signature] = parts as [string, string, string];
    let header: { alg?: string };
    let claims: { iss?: string; aud?: string; scope?: string; iat?: number; exp?: number };
    try {
      header = JSON.parse(Buffer.from(head, "base64url").toString());
      claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    } catch {
      return "unreadable JWT";
    }
    if (header.alg !== "RS256") return `alg ${header.alg}`;
    const valid = verify(
      "sha256",
      Buffer.from(`${head}.${payload}`),
      options.publicKey,
      Buffer.from(signature, "base64url"),
    );
    if (!valid) return "Invalid JWT Signature.";
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== options.clientEmail) return `iss ${claims.iss}`;
    if (claims.aud !== `${origin}${TOKEN_PATH}`) return `aud ${claims.aud}`;
    if (claims.scope !== FCM_SCOPE) return `scope ${claims.scope}`;
    if (typeof claims.iat !== "number" || typeof claims.exp !== "number") return "iat/exp missing";
    if (claims.iat > now + 60) return "iat in the future";
    if (claims.exp <= now) return "expired";
    if (claims.exp - claims.iat > 3600) return "lifetime over an hour";
    return null;
  }

  async function handleToken(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams(await readBody(req));
    if (req.headers["content-type"] !== "application/x-www-form-urlencoded") {
      signIns.push({ ok: false, reason: "content-type" });
      return send(res, 400, { error: "invalid_request", error_description: "form body expected" });
    }
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      signIns.push({ ok: false, reason: "grant_type" });
      return send(res, 400, { error: "unsupported_grant_type", error_description: "Invalid grant_type" });
    }
    const refused = checkAssertion(form.get("assertion") ?? "");
    if (refused) {
      signIns.push({ ok: false, reason: refused });
      return send(res, 400, { error: "invalid_grant", error_description: refused });
    }
    const accessToken = `ya29.${randomBytes(24).toString("base64url")}`;
    issued.add(accessToken);
    signIns.push({ ok: true });
    send(res, 200, { access_token: accessToken, expires_in: options.expiresIn ?? 3599, token_type: "Bearer" });
  }

  async function handleSend(req: IncomingMessage, res: ServerResponse) {
    const accessToken = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    if (!issued.has(accessToken)) {
      return fcmError(
        res,
        401,
        "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token.",
      );
    }
    let body: { message?: ReceivedFcmMessage["message"] };
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return fcmError(res, 400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
    }
    const message = body.message;
    if (!message || typeof message.token !== "string") {
      return fcmError(res, 400, "INVALID_ARGUMENT", "Request contains an invalid argument.");
    }
    const data = message.data ?? {};
    if (Object.values(data).some((v) => typeof v !== "string")) {
      return fcmError(res, 400, "INVALID_ARGUMENT", "Invalid value at 'message.data': not a string");
    }
    const link = message.webpush?.fcm_options?.link;
    if (link !== undefined && !link.startsWith("https://")) {
      return fcmError(res, 400, "INVALID_ARGUMENT", "The WebpushFcmOptions.link must be an HTTPS URL.");
    }
    const token = message.token;
    if (!/^[\w:-]+$/.test(token)) {
      return fcmError(res, 400, "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token", [
        { "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: "INVALID_ARGUMENT" },
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: [
            { field: "message.token", description: "The registration token is not a valid FCM registration token" },
          ],
        },
      ]);
    }
    if (unregistered.has(token)) {
      return fcmError(res, 404, "NOT_FOUND", "Requested entity was not found.", [
        { "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: "UNREGISTERED" },
      ]);
    }
    const failure = failures.get(token);
    if (failure) {
      const status = failure === 429 ? "RESOURCE_EXHAUSTED" : failure >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
      return fcmError(res, failure, status, "Internal error encountered.", [
        { "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: status },
      ]);
    }
    const entry: ReceivedFcmMessage = { token, message, accessToken };
    received.push(entry);
    const waiter = waiters.findIndex((w) => w.token === token);
    if (waiter >= 0) {
      taken.add(entry);
      waiters.splice(waiter, 1)[0]!.resolve(entry);
    }
    send(res, 200, { name: `projects/${options.projectId}/messages/${received.length}` });
  }

  const sendPath = `/v1/projects/${options.projectId}/messages:send`;
  const server = createServer((req, res) => {
    const run = async () => {
      if (req.method === "POST" && req.url === TOKEN_PATH) return handleToken(req, res);
      if (req.method === "POST" && req.url === sendPath) return handleSend(req, res);
      fcmError(res, 404, "NOT_FOUND", `no ${req.method} ${req.url}`);
    };
    run().catch((error: unknown) => fcmError(res, 500, "INTERNAL", String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    apiUrl: origin,
    tokenUrl: `${origin}${TOKEN_PATH}`,
    received,
    signIns,
    unregister: (token) => void unregistered.add(token),
    failWith(token, status) {
      if (status === null) failures.delete(token);
      else failures.set(token, status);
    },
    revokeAccessTokens: () => issued.clear(),
    next(token, timeoutMs = 5000) {
      const ready = received.find((m) => m.token === token && !taken.has(m));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no FCM message for ${token}`)), timeoutMs);
        waiters.push({
          token,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString()));
    req.on("error", reject);
  });
}
