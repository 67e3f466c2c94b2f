import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, Agent, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A local stand-in for a browser push service (the part of the internet these tests cannot reach):
 * an HTTPS endpoint with a self-signed certificate that accepts Web Push requests (RFC 8030),
 * checks the VAPID authorization (RFC 8292) and decrypts the aes128gcm payload (RFC 8291, RFC 8188)
 * with the subscription's private key, exactly as a browser would.
 */
export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted payload text. */
  text: string;
  ttl: string | undefined;
  urgency: string | undefined;
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
}

export interface TestSubscription {
  id: string;
  /** As PushSubscription.toJSON() gives it. */
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export interface PushReceiver {
  origin: string;
  /** The certificate, PEM, for an https.Agent's `ca` or NODE_EXTRA_CA_CERTS. */
  certificate: string;
  certificateFile: string;
  /** An https.Agent that trusts this endpoint. */
  agent: Agent;
  received: ReceivedPush[];
  /** A new subscription with its own key pair and auth secret. */
  subscribe(): TestSubscription;
  /** From now on this subscription answers 410 Gone, as a push service does after unsubscribe. */
  expire(id: string): void;
  /** Resolves with the next push that arrives (or one already received for `id` that was not taken). */
  next(id?: string, timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

const b64u = (buf: Buffer) => buf.toString("base64url");

export async function startPushReceiver(): Promise<PushReceiver> {
  const dir = mkdtempSync(path.join(tmpdir(), "push-receiver-"));
  const keyFile = path.join(dir, "key.pem");
  const certificateFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certificateFile,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  const certificate = readFileSync(certificateFile, "utf8");

  const subscriptions = new Map<
    string,
    { ecdh: ReturnType<typeof createECDH>; publicKey: Buffer; auth: Buffer; gone: boolean }
  >();
  const received: ReceivedPush[] = [];
  const taken = new Set<ReceivedPush>();
  const waiters: { id: string | undefined; resolve: (p: ReceivedPush) => void }[] = [];

  const server: Server = createServer({ key: readFileSync(keyFile), cert: certificate }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? "")?.[1];
      const sub = id ? subscriptions.get(id) : undefined;
      if (!id || !sub || req.method !== "POST") return void res.writeHead(404).end();
      if (sub.gone) return void res.writeHead(410).end();
      try {
        if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("content-encoding must be aes128gcm");
        const vapid = checkVapid(String(req.headers.authorization ?? ""), origin);
        const text = decrypt(Buffer.concat(chunks), sub.ecdh, sub.publicKey, sub.auth);
        const push: ReceivedPush = {
          subscriptionId: id,
          text,
          ttl: req.headers.ttl as string | undefined,
          urgency: req.headers.urgency as string | undefined,
          vapid,
        };
        received.push(push);
        const waiter = waiters.findIndex((w) => w.id === undefined || w.id === id);
        if (waiter >= 0) {
          taken.add(push);
          waiters.splice(waiter, 1)[0]!.resolve(push);
        }
        res.writeHead(201).end();
      } catch (error) {
        res.writeHead(400, { "content-type": "text/plain" }).end((error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://localhost:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    certificate,
    certificateFile,
    agent: new Agent({ ca: certificate }),
    received,
    subscribe() {
      const id = b64u(randomBytes(9));
      const ecdh = createECDH("prime256v1");
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      subscriptions.set(id, { ecdh, publicKey, auth, gone: false });
      return {
        id,
        json: {
          endpoint: `${origin}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: b64u(publicKey), auth: b64u(auth) },
        },
      };
    },
    expire(id) {
      const sub = subscriptions.get(id);
      if (sub) sub.gone = true;
    },
    next(id, timeoutMs = 10_000) {
      const ready = received.find((p) => !taken.has(p) && (id === undefined || p.subscriptionId === id));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const waiter = { id, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) {
            waiters.splice(i, 1);
            reject(new Error(`no push arrived within ${timeoutMs} ms`));
          }
        }, timeoutMs).unref();
      });
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** RFC 8291 §3.4 and RFC 8188 §2: one aes128gcm record. */
function decrypt(body: Buffer, ecdh: ReturnType<typeof createECDH>, uaPublic: Buffer, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error("keyid must be the sender's 65-byte public key");
  if (ciphertext.length > recordSize) throw new Error("expected a single record");

  const ecdhSecret = ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));

  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero or more padding zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("missing last-record padding delimiter");
  return padded.subarray(0, end).toString("utf8");
}

/** RFC 8292: `vapid t=<ES256 JWT>, k=<public key>`; the JWT's aud must be this push service's origin. */
function checkVapid(header: string, origin: string): ReceivedPush["vapid"] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(header);
  if (!match) throw new Error("missing vapid authorization");
  const [header64, payload64, signature64] = match[1]!.split(".") as [string, string, string];
  const raw = Buffer.from(match[2]!, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) throw new Error("k must be an uncompressed P-256 point");
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33)) },
    format: "jwk",
  });
  const ok = verify(
    "sha256",
    Buffer.from(`${header64}.${payload64}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature64, "base64url"),
  );
  if (!ok) throw new Error("VAPID signature does not verify");
  const claims = JSON.parse(Buffer.from(payload64, "base64url").toString()) as {
    aud: string;
    sub: string;
    exp: number;
  };
  if (claims.aud !== origin) throw new Error(`VAPID aud ${claims.aud} is not ${origin}`);
  if (!(claims.exp * 1000 > Date.now())) throw new Error("VAPID token expired");
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error("VAPID sub must be mailto: or https:");
  return { ...claims, publicKey: match[2]! };
}
