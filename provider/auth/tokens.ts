import { randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

const ISSUER = "putseller-provider";

export interface TokenService {
  issue(userId: number): Promise<string>;
  /** The user id of a valid, unexpired token and when it expires (ms since the epoch), else undefined. */
  verify(token: string): Promise<VerifiedToken | undefined>;
}

export interface VerifiedToken {
  userId: number;
  expiresAt: number;
  /** When the token was issued (ms since the epoch, whole seconds). */
  issuedAt: number;
}

/** How many verified tokens are remembered (about 300 bytes each); the oldest goes first. */
const VERIFIED_KEPT = 10_000;

/**
 * HS256 bearer tokens; `secrets[0]` signs, every secret verifies (so a secret can be rotated).
 *
 * A token whose signature checked out is remembered until it expires: every request of a session
 * carries the same token, and the check (WebCrypto's HMAC, an asynchronous job on Node's thread
 * pool) was 12 % of the provider's time on a list page. Only genuine tokens are kept, byte for
 * byte, so a forged one is always checked. Whether a token was signed out is not part of this:
 * the caller's query reads that on every request (provider/auth/callers.ts; ADR 0058).
 */
export function createTokenService(secrets: string[], ttlSeconds: number): TokenService {
  const keys = secrets.map((s) => new TextEncoder().encode(s));
  const signingKey = keys[0];
  if (!signingKey) throw new Error("At least one token secret is needed");
  const verified = new Map<string, VerifiedToken>();
  const remember = (token: string, claims: VerifiedToken) => {
    if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
  };
  return {
    async issue(userId) {
      return (
        new SignJWT({})
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .setSubject(String(userId))
          .setIssuer(ISSUER)
          .setIssuedAt()
          // Unique per sign-in, so signing one session out (its token refused) never ends another
          // of the same user signed in within the same second.
          .setJti(randomUUID())
          .setExpirationTime(`${ttlSeconds}s`)
          .sign(signingKey)
      );
    },
    async verify(token) {
      if (!canonicalSignature(token)) return undefined;
      const known = verified.get(token);
      if (known) {
        // (jose's rule: expired from the second of `exp` on)
        if (Date.now() < known.expiresAt) return known;
        verified.delete(token);
        return undefined;
      }
      for (const key of keys) {
        try {
          const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ["HS256"] });
          const id = Number(payload.sub);
          if (!Number.isInteger(id) || id <= 0 || typeof payload.exp !== "number" || typeof payload.iat !== "number") {
            return undefined;
          }
          const claims = { userId: id, expiresAt: payload.exp * 1000, issuedAt: payload.iat * 1000 };
          remember(token, claims);
          return claims;
        } catch {
          // try the next secret
        }
      }
      return undefined;
    },
  };
}

/**
 * Whether the token's signature is spelled the one way base64url writes its bytes. HS256's 32
 * bytes take 43 characters whose last 2 bits are spare, and a decoder ignores them, so each token
 * could be spelled four ways, and a signed-out token (refused by the SHA-256 of its text,
 * provider/auth/callers.ts) would pass again spelled another way.
 */
function canonicalSignature(token: string): boolean {
  const signature = token.slice(token.lastIndexOf(".") + 1);
  return Buffer.from(signature, "base64url").toString("base64url") === signature;
}
