import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { configIsOn } from "#contract/entities.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { configFlag } from "#provider/store/config-flag.ts";

let provider: TestProvider;
let demoToken: string;
let adminToken: string;
beforeAll(async () => {
  provider = await testProvider();
  demoToken = await provider.login("demo", "demo1234");
  adminToken = await provider.login("admin", "admin1234");
});
afterAll(() => provider.close());

describe("backend config", () => {
  for (const key of ["auto_refresh_enabled", "auto_trade_recommendation_generation_enabled"] as const) {
    it(`an admin reads and flips ${key}; the jobs see it`, async () => {
      const before = await provider.call(calls.getConfig, { token: adminToken, params: { key } });
      expect(before.status).toBe(200);
      expect(configIsOn(calls.getConfig.response.parse(before.body).value)).toBe(false);

      const on = await provider.call(calls.setConfig, { token: adminToken, params: { key }, body: { value: "1" } });
      expect(on.body).toEqual({ key, value: "1" });
      expect(await configFlag(provider.context.db, key)).toBe(true);
      expect((await provider.call(calls.getConfig, { token: adminToken, params: { key } })).body.value).toBe("1");

      await provider.call(calls.setConfig, { token: adminToken, params: { key }, body: { value: "0" } });
      expect(await configFlag(provider.context.db, key)).toBe(false);
    });
  }

  it("refuses traders with the 403 text of docs/product.md#roles-403, and leaves the flag alone", async () => {
    const params = { key: "auto_refresh_enabled" };
    const read = await provider.call(calls.getConfig, { token: demoToken, params });
    const write = await provider.call(calls.setConfig, { token: demoToken, params, body: { value: "1" } });
    for (const res of [read, write]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: "Not authorized to perform this action" });
    }
    expect(await configFlag(provider.context.db, "auto_refresh_enabled")).toBe(false);
  });

  it("accepts only the two keys and the values '1' and '0'", async () => {
    const badKey = await provider.call(calls.setConfig, {
      token: adminToken,
      params: { key: "drop_tables" },
      body: { value: "1" },
    });
    expect(badKey.status).toBe(422);
    const badValue = await provider.call(calls.setConfig, {
      token: adminToken,
      params: { key: "auto_refresh_enabled" },
      body: { value: "yes" },
    });
    expect(badValue.status).toBe(422);
  });
});
