import { afterEach, describe, expect, test, vi } from "vitest";
import { createTokenService } from "./tokens.ts";

const SECRET = "token-secret-token-secret-token-secret-0123";

afterEach(() => {
  vi.useRealTimers();
});

describe("bearer tokens", () => {
  test("a token verifies as its user, again and again, with when it was issued and expires", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-27T10:00:00.400Z"), toFake: ["Date"] });
    const tokens = createTokenService([SECRET], 60);
    const token = await tokens.issue(42);
    const expected = {
      userId: 42,
      issuedAt: Date.parse("2026-11-27T10:00:00Z"),
      expiresAt: Date.parse("2026-11-27T10:01:00Z"),
    };
    expect(await tokens.verify(token)).toEqual(expected);
    expect(await tokens.verify(token)).toEqual(expected);
  });

  test("a token verified before is refused from the second it expires", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-27T10:00:00Z"), toFake: ["Date"] });
    const tokens = createTokenService([SECRET], 60);
    const token = await tokens.issue(7);
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(new Date("2026-11-27T10:00:59.999Z"));
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(new Date("2026-11-27T10:01:00Z"));
    expect(await tokens.verify(token)).toBeUndefined();
    // Still refused when asked again (and not put back as valid).
    expect(await tokens.verify(token)).toBeUndefined();
  });

  test("a token changed by one character is refused, though the genuine one was verified", async () => {
    const tokens = createTokenService([SECRET], 60);
    const token = await tokens.issue(7);
    expect(await tokens.verify(token)).toBeDefined();
    const [header, payload, signature] = token.split(".") as [string, string, string];
    // The payload says user 8 instead of 7: the signature no longer matches.
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: "8" })).toString("base64url");
    expect(await tokens.verify(`${header}.${forgedPayload}.${signature}`)).toBeUndefined();
    // The signature's first character: each of its 6 bits is the signature's. (Not the last: 32 bytes
    // take 43 characters, whose last 2 bits are padding, so "A" → "B" there can decode to the same bytes.)
    const firstChar = signature[0] === "A" ? "B" : "A";
    expect(await tokens.verify(`${header}.${payload}.${firstChar}${signature.slice(1)}`)).toBeUndefined();
  });

  test("a genuine token spelled another way is refused: its signature's spare bits changed", async () => {
    const tokens = createTokenService([SECRET], 60);
    for (let user = 1; user <= 20; user++) {
      const token = await tokens.issue(user);
      const signature = token.slice(token.lastIndexOf(".") + 1);
      // The same 32 bytes, the last character's 2 spare bits flipped (43 characters carry 258 bits).
      const respelled = signature.slice(0, -1) + spareFlipped(signature);
      expect(Buffer.from(respelled, "base64url")).toEqual(Buffer.from(signature, "base64url"));
      expect(await tokens.verify(token.replace(signature, respelled)), `user ${user}`).toBeUndefined();
      expect(await tokens.verify(token)).toMatchObject({ userId: user });
    }
  });

  test("a token signed with another secret is refused; after a rotation the old secret still verifies", async () => {
    const before = createTokenService(["old-secret-old-secret-old-secret-0123456"], 60);
    const token = await before.issue(5);
    expect(await createTokenService([SECRET], 60).verify(token)).toBeUndefined();
    const rotated = createTokenService([SECRET, "old-secret-old-secret-old-secret-0123456"], 60);
    expect(await rotated.verify(token)).toMatchObject({ userId: 5 });
  });
});

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** The signature's last character with its two low (spare) bits inverted. */
function spareFlipped(signature: string): string {
  return ALPHABET[ALPHABET.indexOf(signature.at(-1)!) ^ 3]!;
}
