import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { createRateLimiter, tooMany, type RateRule } from "./rate-limit.ts";
import { HttpError } from "#provider/http/errors.ts";

let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider({ seedDemo: false });
});
afterAll(() => provider.close());

const rule: RateRule = { name: "test", limit: 3, windowSeconds: 600, what: "test attempts" };

async function status(promise: Promise<void>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
}

describe("rate limiter", () => {
  it("allows the limit, refuses the next, and counts keys apart (case-insensitively)", async () => {
    const limiter = createRateLimiter(provider.context.db);
    for (let i = 0; i < 3; i++) expect(await status(limiter.hit(rule, "Alice"))).toBe(200);
    expect(await status(limiter.hit(rule, "alice"))).toBe(429);
    expect(await status(limiter.check(rule, "ALICE"))).toBe(429);
    expect(await status(limiter.hit(rule, "bob"))).toBe(200);
  });

  it("opens again when the window has passed", async () => {
    const limiter = createRateLimiter(provider.context.db);
    for (let i = 0; i < 4; i++) await status(limiter.hit(rule, "carol"));
    expect(await status(limiter.check(rule, "carol"))).toBe(429);
    await provider.context.db
      .updateTable("rate_limits")
      .set({ window_start: sql<Date>`now() - interval '601 seconds'` })
      .where("bucket", "=", "test:carol")
      .execute();
    expect(await status(limiter.check(rule, "carol"))).toBe(200);
    expect(await status(limiter.hit(rule, "carol"))).toBe(200);
    const row = await provider.context.db
      .selectFrom("rate_limits")
      .select("hits")
      .where("bucket", "=", "test:carol")
      .executeTakeFirstOrThrow();
    expect(row.hits).toBe(1);
  });

  it("forgets a bucket on reset", async () => {
    const limiter = createRateLimiter(provider.context.db);
    for (let i = 0; i < 4; i++) await status(limiter.hit(rule, "dave"));
    await limiter.reset(rule, "dave");
    expect(await status(limiter.hit(rule, "dave"))).toBe(200);
  });

  it("counts correctly when many attempts arrive at once", async () => {
    const limiter = createRateLimiter(provider.context.db);
    const results = await Promise.all(Array.from({ length: 10 }, () => status(limiter.hit(rule, "erin"))));
    expect(results.filter((s) => s === 200)).toHaveLength(3);
    expect(results.filter((s) => s === 429)).toHaveLength(7);
  });

  it("reserves at most the limit when many ask at once, takes nothing when full, and gives a slot back", async () => {
    const limiter = createRateLimiter(provider.context.db);
    const taken = await Promise.all(
      Array.from({ length: 20 }, () =>
        limiter.reserve(rule, "frank").then(
          (slot) => slot,
          (error: unknown) => (error instanceof HttpError ? error.status : Promise.reject(error)),
        ),
      ),
    );
    const slots = taken.filter((t) => typeof t === "object");
    expect(slots).toHaveLength(3);
    expect(taken.filter((t) => t === 429)).toHaveLength(17);
    const hits = () =>
      provider.context.db
        .selectFrom("rate_limits")
        .select("hits")
        .where("bucket", "=", "test:frank")
        .executeTakeFirstOrThrow()
        .then((row) => row.hits);
    // Refusals took nothing: the count is the three slots.
    expect(await hits()).toBe(3);
    await limiter.release(slots[0]!);
    expect(await hits()).toBe(2);
    expect(await status(limiter.reserve(rule, "frank").then(() => {}))).toBe(200);
    expect(await status(limiter.reserve(rule, "frank").then(() => {}))).toBe(429);
  });

  it("a release from an ended window leaves the new window's count alone", async () => {
    const limiter = createRateLimiter(provider.context.db);
    const taken = await limiter.reserve(rule, "gina");
    // The slot's window began 601 s ago and has ended. The reservation names the window as moved:
    // a clock that had not ticked between the two reserves would otherwise give both the same start.
    const { window } = await provider.context.db
      .updateTable("rate_limits")
      .set({ window_start: sql<Date>`now() - interval '601 seconds'` })
      .where("bucket", "=", "test:gina")
      .returning(sql<string>`(extract(epoch FROM window_start) * 1000000)::bigint::text`.as("window"))
      .executeTakeFirstOrThrow();
    const old = { ...taken, window };
    await limiter.reserve(rule, "gina");
    await limiter.release(old);
    const row = await provider.context.db
      .selectFrom("rate_limits")
      .select("hits")
      .where("bucket", "=", "test:gina")
      .executeTakeFirstOrThrow();
    expect(row.hits).toBe(1);
  });

  it("words the wait in minutes and sends Retry-After in seconds", () => {
    expect(tooMany(rule, 30).message).toBe("Too many test attempts. Please wait a minute and try again.");
    expect(tooMany(rule, 899.2).message).toBe("Too many test attempts. Please wait 15 minutes and try again.");
    expect(tooMany(rule, 899.2).headers["Retry-After"]).toBe("900");
  });
});
