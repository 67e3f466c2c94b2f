import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable.ts";

/** Which failures answer 503 (the database cannot be reached now) rather than 500 (issue 40, finding 9). */
const postgres = process.env.TEST_DATABASE === "postgres";

describe("isDatabaseUnavailable", () => {
  it("reads a wrapped error through to its cause, and leaves other errors a 500", () => {
    const dropped = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    expect(isDatabaseUnavailable(dropped)).toBe(true);
    expect(isDatabaseUnavailable(new Error("the rollback failed too", { cause: dropped }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("outer", { cause: new Error("inner", { cause: dropped }) }))).toBe(true);
    const violated = Object.assign(new Error("violates check constraint"), { code: "23514" });
    expect(isDatabaseUnavailable(violated)).toBe(false);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: violated }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
  });

  it.runIf(postgres)("counts a client the database dropped, used again, as unavailable (PostgreSQL)", async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.end();
    const error = await client.query("SELECT 1").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe("Client was closed and is not queryable");
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
