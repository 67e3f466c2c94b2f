import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * AES-256-GCM sealing of values kept in cookies (the provider token), so the browser
 * holds only ciphertext. The first secret seals; every secret opens (rotation).
 */
const key = (secret: string) => createHash("sha256").update(`seal:${secret}`).digest();

export function seal(value: string, secrets: string[]): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(secrets[0]!), iv);
  const data = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(".");
}

export function unseal(sealed: string, secrets: string[]): string | undefined {
  const [iv, tag, data] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  if (!iv || !tag || !data) return undefined;
  for (const secret of secrets) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key(secret), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
    } catch {
      // try the next secret
    }
  }
  return undefined;
}
