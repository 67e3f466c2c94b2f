import { afterEach, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { fillPath, type Endpoint } from "#contract/endpoint.ts";
import { startNode, tempDir, type Started } from "../tests/e2e/support/processes.ts";
import { testPostgresDatabase } from "./testing/provider.ts";
import { device } from "./testing/world.ts";

/**
 * The provider process killed with SIGKILL while it is writing: after a restart on the same store,
 * every write it acknowledged (answered 2xx) is there. With the embedded PGlite store (files in
 * DATA_DIR) always; with a PostgreSQL server when TEST_DATABASE=postgres.
 */
const PORT = 8300 + (process.pid % 500);
const WRITERS = 6;
const WRITE_MS = 1500;

let running: Started | undefined;
afterEach(async () => {
  if (running && running.process.exitCode === null) running.process.kill("SIGKILL");
  running = undefined;
});

async function start(env: Record<string, string>): Promise<Started> {
  running = await startNode(
    "provider/main.ts",
    {
      PROVIDER_PORT: String(PORT),
      SEED_DEMO: "true",
      PROVIDER_SECRET: "kill-test-secret-kill-test-secret-0123",
      ...env,
    },
    `http://127.0.0.1:${PORT}`,
  );
  return running;
}

async function call(
  base: string,
  endpoint: Endpoint,
  input: { token?: string; params?: Record<string, string | number>; body?: unknown },
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (input.token) headers.authorization = `Bearer ${input.token}`;
  let body = input.body === undefined ? undefined : JSON.stringify(input.body);
  if (endpoint.bodyEncoding === "form") {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(input.body as Record<string, string>).toString();
  }
  const res = await fetch(base + fillPath(endpoint.path, input.params ?? {}), {
    method: endpoint.method,
    headers,
    body,
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

async function killDuringWrites(env: Record<string, string>) {
  let provider = await start(env);
  // No demo data (seeding costs seconds): one registered trader writes.
  const trader = { username: "killtest", password: "Kill-test-1234" };
  const registered = await call(provider.url, calls.register, {
    body: { ...trader, email: "killtest@example.test", first_name: "Kill", last_name: "Test" },
  });
  expect(registered.status).toBe(200);
  const login = await call(provider.url, calls.login, { body: trader });
  const token = login.body.access_token as string;
  const me = await call(provider.url, calls.me, { token });
  const userId = me.body.id as number;

  // Writers add trades as fast as they can; a trade counts once the provider answered 200 with its id.
  // (Trades, not push devices: a user keeps only their newest 20 devices, ADR 0072.)
  const acknowledged: number[] = [];
  let failed = 0;
  let stop = false;
  const writer = async () => {
    while (!stop) {
      try {
        const res = await call(provider.url, calls.addTrade, {
          token,
          body: {
            kind: "stock_buy",
            ticker: "KO",
            quantity: 1,
            price: 60,
            fees: 0,
            traded_at: new Date(Date.now() - 3_600_000).toISOString(),
          },
        });
        if (res.status === 200) acknowledged.push(res.body.id as number);
        else failed++;
      } catch {
        failed++; // the connection died with the process: not acknowledged
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, () => writer());
  await new Promise((r) => setTimeout(r, WRITE_MS));
  const killed = new Promise((r) => provider.process.once("exit", r));
  provider.process.kill("SIGKILL");
  await killed;
  stop = true;
  await Promise.all(writers);
  expect(acknowledged.length, "writes acknowledged before the kill").toBeGreaterThan(10);

  provider = await start(env);
  // The session's token still works after the restart (the secret is the store's or the setting's).
  const missing: string[] = [];
  for (let i = 0; i < acknowledged.length; i += 20) {
    await Promise.all(
      acknowledged.slice(i, i + 20).map(async (id) => {
        const res = await call(provider.url, calls.getTrade, { token, params: { id } });
        if (res.status !== 200) missing.push(`trade ${id}: ${res.status}`);
      }),
    );
  }
  expect(missing, `${acknowledged.length} acknowledged, ${failed} cut off`).toEqual([]);
  console.log(`[kill] ${acknowledged.length} acknowledged writes kept, ${failed} cut off`);
  // Still writable after the crash.
  const after = await call(provider.url, calls.registerDevice, {
    token,
    params: { userId },
    body: device("after-restart"),
  });
  expect(after.status).toBe(200);
  await provider.stop();
}

describe("the provider killed with SIGKILL during writes", () => {
  it("loses no acknowledged write on the embedded PGlite store", { timeout: 120_000 }, async () => {
    await killDuringWrites({ DATA_DIR: tempDir("putseller-kill-") });
  });

  it.runIf(process.env.TEST_DATABASE === "postgres")(
    "loses no acknowledged write on PostgreSQL",
    { timeout: 120_000 },
    async () => {
      const database = await testPostgresDatabase();
      try {
        await killDuringWrites({ DATABASE_URL: database.url });
      } finally {
        await database.drop();
      }
    },
  );
});
