import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { DEVICES_PER_USER } from "./devices.ts";

/** The cap on one user's push devices (issue 40, finding 8): 20, the one registered longest ago dropped. */
let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider();
});
afterAll(() => provider.close());

let counter = 0;
async function newTrader() {
  const name = `devices${++counter}`;
  await provider.call(calls.register, {
    body: { email: `${name}@example.test`, username: name, password: "Passw0rd-dev", first_name: "D", last_name: "V" },
    headers: { "x-forwarded-for": `198.51.100.${counter}` },
  });
  const token = await provider.login(name, "Passw0rd-dev");
  const me = await provider.call(calls.me, { token });
  return { token, id: me.body.id as number };
}

const device = (fcmToken: string) => ({
  device_type: "web" as const,
  fcm_token: fcmToken,
  browser: "Chrome",
  os: "Android",
  ip_address: "Unknown",
  user_agent: "Mozilla/5.0 (Linux; Android 14) Chrome/140",
  app_version: "0.1.0",
  notification_opt_in: "1" as const,
});

async function tokensOf(userId: number): Promise<string[]> {
  const rows = await provider.context.db
    .selectFrom("devices")
    .select("fcm_token")
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  return rows.map((row) => row.fcm_token);
}

describe("push devices per user", () => {
  it("keeps the 20 latest: the 21st registration drops the one registered longest ago", async () => {
    const who = await newTrader();
    for (let i = 1; i <= DEVICES_PER_USER + 3; i++) {
      const res = await provider.call(calls.registerDevice, {
        token: who.token,
        params: { userId: who.id },
        body: device(`fcm-token-${i}`),
      });
      expect(res.status).toBe(200);
    }
    const kept = await tokensOf(who.id);
    expect(kept).toHaveLength(20);
    expect(kept).toEqual(Array.from({ length: 20 }, (_, i) => `fcm-token-${i + 4}`));
  });

  it("a browser registering again is the newest, so it is not the one dropped", async () => {
    const who = await newTrader();
    const register = (token: string) =>
      provider.call(calls.registerDevice, { token: who.token, params: { userId: who.id }, body: device(token) });
    for (let i = 1; i <= DEVICES_PER_USER; i++) await register(`again-${i}`);
    await register("again-1");
    await register("again-21");
    const kept = await tokensOf(who.id);
    expect(kept).toContain("again-1");
    expect(kept).not.toContain("again-2");
    expect(kept).toHaveLength(20);
  });

  it("holds for 50 registrations sent at once", async () => {
    const who = await newTrader();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        provider.call(calls.registerDevice, {
          token: who.token,
          params: { userId: who.id },
          body: device(`burst-${i}-${"x".repeat(4000)}`),
        }),
      ),
    );
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(await tokensOf(who.id)).toHaveLength(20);
  });
});
