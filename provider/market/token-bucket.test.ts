import { describe, expect, it } from "vitest";
import { createTokenBucket } from "./token-bucket.ts";

describe("token bucket", () => {
  it("lets 120 requests through at once, then one every half second (120 a minute)", () => {
    let t = 0;
    const bucket = createTokenBucket(120, 60_000, () => t);
    for (let i = 0; i < 120; i++) expect(bucket.take()).toBe(0);
    // Empty: the next token comes in 60 000 / 120 = 500 ms.
    expect(bucket.take()).toBe(500);
    t = 499;
    expect(bucket.take()).toBe(1);
    t = 500;
    expect(bucket.take()).toBe(0);
    expect(bucket.take()).toBe(500);
  });

  it("waits for the vendor's reset when the vendor says nothing is left", () => {
    let t = 10_000;
    const bucket = createTokenBucket(120, 60_000, () => t);
    bucket.exhaust(40_000);
    expect(bucket.take()).toBe(30_000);
    t = 40_000;
    // The 30 s waited refilled 60 tokens.
    expect(bucket.take()).toBe(0);
  });
});
