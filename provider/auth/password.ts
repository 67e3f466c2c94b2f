import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** scrypt's cost N for new hashes: 2^15 × r=8 takes tens of milliseconds and 32 MiB per hash, as OWASP suggests. */
export const PASSWORD_COST = 2 ** 15;
const BLOCK_SIZE = 8;
const MAX_MEMORY = 64 * 1024 * 1024;
const KEY_LENGTH = 32;

export interface Passwords {
  /** `scrypt$N$r$p$salt$hash`, base64url parts, so the cost can rise later without breaking old hashes. */
  hash(password: string): Promise<string>;
  /** Checks against a stored hash at the cost it was made with. */
  verify(password: string, stored: string): Promise<boolean>;
  /** A hash to verify against when the user does not exist, so both cases cost the same time. */
  decoy(): Promise<string>;
}

/**
 * Password hashing at scrypt cost `cost` (a power of two). Only the test suites pass a lower one:
 * they sign in and register hundreds of times a run (ADR 0064). It is never read from the environment.
 */
export function createPasswords(cost: number = PASSWORD_COST): Passwords {
  if (!Number.isInteger(Math.log2(cost)) || cost < 2)
    throw new Error(`scrypt's cost must be a power of two, not ${cost}`);
  async function hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, {
      N: cost,
      r: BLOCK_SIZE,
      p: 1,
      maxmem: MAX_MEMORY,
    });
    return ["scrypt", cost, BLOCK_SIZE, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
  }
  let decoy: Promise<string> | undefined;
  return {
    hash,
    verify: verifyPassword,
    decoy() {
      decoy ??= hash(randomBytes(12).toString("hex"));
      return decoy;
    },
  };
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  });
  return timingSafeEqual(key, expected);
}
