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

/** HS256 bearer tokens; `secrets[0]` signs, every secret verifies (so a secret can be rotated). */
export function createTokenService(secrets: string[], ttlSeconds: number): TokenService {
  const keys = secrets.map((s) => new TextEncoder().encode(s));
  const signingKey = keys[0];
  if (!signingKey) throw new Error("At least one token secret is needed");
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
      for (const key of keys) {
        try {
          const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ["HS256"] });
          const id = Number(payload.sub);
          if (!Number.isInteger(id) || id <= 0 || typeof payload.exp !== "number" || typeof payload.iat !== "number") {
            return undefined;
          }
          return { userId: id, expiresAt: payload.exp * 1000, issuedAt: payload.iat * 1000 };
        } catch {
          // try the next secret
        }
      }
      return undefined;
    },
  };
}
