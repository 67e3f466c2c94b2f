import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

/**
 * Broker access tokens encrypted at rest (docs/decisions/0075-broker-tokens-encrypted-at-rest.md):
 * AES-256-GCM with a fresh 12-byte IV a token, the row's owner and broker as additional data (a
 * ciphertext copied onto another trader's row does not open). Keys come from BROKER_TOKEN_KEY
 * (comma-separated base64 keys of 32 bytes, the first encrypts) or, without it, from the provider's
 * token secrets through HKDF; every key decrypts, so a key is rotated by putting the new one first.
 * Stored as `v1.<key id>.<iv>.<tag>.<data>` (base64url), the key id being the first 8 hex digits
 * of the key's SHA-256, so the right key is tried without guessing.
 */
export interface TokenCipher {
  encrypt(token: string, owner: string): string;
  /** The token, or null when no key opens it (a key removed, a row tampered with). */
  decrypt(stored: string, owner: string): string | null;
  /** Whether `stored` was sealed with a key other than the current one (re-encrypted on its next use). */
  isStale(stored: string): boolean;
}

const HKDF_SALT = "putseller broker tokens";
const HKDF_INFO = "aes-256-gcm v1";

export class BrokerKeyError extends Error {}

/** The keys of BROKER_TOKEN_KEY: each base64 (or base64url) of exactly 32 bytes. */
export function parseBrokerKeys(value: string): Buffer[] {
  const keys = value
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => Buffer.from(k, "base64"));
  if (keys.length === 0 || keys.some((k) => k.length !== 32)) {
    throw new BrokerKeyError(
      "BROKER_TOKEN_KEY must be base64 keys of 32 bytes, comma-separated (e.g. `openssl rand -base64 32`)",
    );
  }
  return keys;
}

/** A key for each provider secret (HKDF-SHA256), when BROKER_TOKEN_KEY is not set. */
export function keysFromSecrets(secrets: readonly string[]): Buffer[] {
  return secrets.map((secret) => Buffer.from(hkdfSync("sha256", secret, HKDF_SALT, HKDF_INFO, 32)));
}

const keyId = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

export function createTokenCipher(keys: readonly Buffer[]): TokenCipher {
  const current = keys[0];
  if (!current) throw new BrokerKeyError("At least one broker token key is needed");
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  const currentId = keyId(current);
  return {
    encrypt(token, owner) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", current, iv, { authTagLength: 16 });
      cipher.setAAD(Buffer.from(owner));
      const data = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ["v1", currentId, iv.toString("base64url"), tag.toString("base64url"), data.toString("base64url")].join(
        ".",
      );
    },
    decrypt(stored, owner) {
      const [version, id, iv, tag, data] = stored.split(".");
      const key = id ? byId.get(id) : undefined;
      if (version !== "v1" || !key || iv === undefined || tag === undefined || data === undefined) return null;
      const authTag = Buffer.from(tag, "base64url");
      // A shortened tag would make forging easier: only GCM's full 16 bytes are accepted.
      if (authTag.length !== 16) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: 16 });
        decipher.setAAD(Buffer.from(owner));
        decipher.setAuthTag(authTag);
        return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
    isStale(stored) {
      return stored.split(".")[1] !== currentId;
    },
  };
}
