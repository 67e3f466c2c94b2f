import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { DateOnly } from "#contract/entities.ts";
import { testProvider, type TestProvider } from "./testing/provider.ts";

/**
 * Input at the edges that once reached the database or the stack and came back as 500: ids past
 * PostgreSQL's integer range, JSON nested thousands deep, dates that do not exist. Each is a 4xx
 * with a readable detail.
 */
let provider: TestProvider;
let admin: string;

beforeAll(async () => {
  provider = await testProvider();
  admin = await provider.login("admin", "admin1234");
});
afterAll(() => provider.close());

describe("bad input at the edges is a 4xx", () => {
  it("refuses ids beyond the PostgreSQL integer range (2147483648 and up) in paths and bodies", async () => {
    for (const userId of [2_147_483_648, 9_007_199_254_740_991]) {
      const listed = await provider.call(calls.listUserStocks, { token: admin, params: { userId } });
      expect(listed.status, String(userId)).toBe(422);
      expect(listed.body.detail).toBe("path.userId: No such id: ids are at most 2147483647");
    }
    const sent = await provider.call(calls.sendNotification, {
      token: admin,
      body: { user_ids: [2_147_483_648], type: "system", title: "Hello", body: "Hello" },
    });
    expect(sent.status).toBe(422);
    // The largest integer is an id like any other: not found, not refused.
    expect(
      (await provider.call(calls.listUserStocks, { token: admin, params: { userId: 2_147_483_647 } })).status,
    ).toBe(200);
  });

  it("refuses deeply nested JSON with 400 instead of overflowing the stack", async () => {
    for (const open of ['{"a":', "["]) {
      const depth = 100_000;
      const close = open === "[" ? "]" : "}";
      const res = await provider.call(calls.createUipStock, {
        token: admin,
        rawBody: open.repeat(depth) + (open === "[" ? "" : "1") + close.repeat(depth),
        headers: { "content-type": "application/json" },
      });
      expect(res.status, open).toBeGreaterThanOrEqual(400);
      expect(res.status, open).toBeLessThan(500);
      expect(res.body.detail).toMatch(/nested too deeply|valid JSON/);
    }
    const res = await provider.call(calls.createUipStock, {
      token: admin,
      rawBody: "[".repeat(5000) + "]".repeat(5000),
      headers: { "content-type": "application/json" },
    });
    expect(res).toMatchObject({
      status: 400,
      body: { detail: "Request body is nested too deeply (at most 32 levels)" },
    });
  });

  it("refuses dates that do not exist", () => {
    for (const bad of ["2026-13-45", "2026-02-30", "2026-00-10", "2025-02-29", "2026-04-31"]) {
      expect(DateOnly.safeParse(bad).success, bad).toBe(false);
    }
    for (const good of ["2026-11-24", "2028-02-29", "2026-12-31"]) {
      expect(DateOnly.safeParse(good).success, good).toBe(true);
    }
  });
});
