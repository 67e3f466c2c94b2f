import { describe, expect, it } from "vitest";
import { createPasswords, PASSWORD_COST } from "./password.ts";

describe("password hashing", () => {
  it("hashes at scrypt cost 2^15 unless told otherwise, with a fresh salt each time, and keeps no clear text", async () => {
    const passwords = createPasswords();
    const first = await passwords.hash("correct horse");
    const second = await passwords.hash("correct horse");
    // scrypt$N$r$p$salt$hash: N = 32768 = 2^15, r = 8, p = 1, a 16-byte salt and a 32-byte key in base64url.
    expect(PASSWORD_COST).toBe(32768);
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toContain("correct horse");
    expect(second).not.toBe(first);
    expect(await passwords.verify("correct horse", first)).toBe(true);
    expect(await passwords.verify("correct horse!", first)).toBe(false);
  });

  it("checks a hash at the cost it was made with, so the cost can change without locking anyone out", async () => {
    const cheap = await createPasswords(2 ** 10).hash("s3cret-pass");
    expect(cheap).toMatch(/^scrypt\$1024\$/);
    expect(await createPasswords().verify("s3cret-pass", cheap)).toBe(true);
    expect(await createPasswords().verify("s3cret-pasS", cheap)).toBe(false);
  });

  it("reads the same password typed in either Unicode form as one (NFKC)", async () => {
    const passwords = createPasswords(2 ** 10);
    // "é" as one code point, then as "e" and a combining accent.
    const stored = await passwords.hash("caf\u00e9-1234");
    expect(await passwords.verify("cafe\u0301-1234", stored)).toBe(true);
  });

  it("answers false, not an error, for a stored value that is not a scrypt hash", async () => {
    const passwords = createPasswords(2 ** 10);
    expect(await passwords.verify("anything", "")).toBe(false);
    expect(await passwords.verify("anything", "bcrypt$2b$10$abc")).toBe(false);
  });

  it("keeps one decoy hash to check unknown users against, at the same cost as real ones", async () => {
    const passwords = createPasswords();
    const decoy = await passwords.decoy();
    expect(decoy).toMatch(/^scrypt\$32768\$/);
    expect(await passwords.decoy()).toBe(decoy);
  });

  it("refuses a cost that is not a power of two", () => {
    expect(() => createPasswords(1000)).toThrow("power of two");
  });
});
