import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as calls from "#contract/calls.ts";
import { WS_STOCK_UPDATES } from "#contract/ws.ts";
import { WS_CLOSE_UNAUTHORIZED } from "#contract/ws-close-codes.ts";
import { createProvider } from "#provider/app.ts";
import { startProviderServer, type RunningProvider } from "#provider/server.ts";
import { testPostgresDatabase } from "#provider/testing/provider.ts";

/**
 * Sign-out ends the session on the server: the token it ended opens nothing afterwards (no read,
 * no write, no websocket), and the user's other sessions go on.
 */
let running: RunningProvider;

beforeAll(async () => {
  running = await startProviderServer({
    port: 0,
    host: "127.0.0.1",
    seedDemo: true,
    secrets: ["test-secret-test-secret-test-secret!"],
    jobs: false,
    // Open websockets' tokens are checked again every 50 ms here (60 s by default).
    liveRecheckMs: 50,
  });
});
afterAll(() => running.close());

async function login(): Promise<string> {
  const response = await fetch(`${running.url}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "demo", password: "demo1234" }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
const call = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${running.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

function socket(token: string): Promise<{ status?: number; ws?: WebSocket; closed: Promise<number> }> {
  const ws = new WebSocket(running.url.replace(/^http/, "ws") + WS_STOCK_UPDATES, {
    headers: { authorization: `Bearer ${token}` },
  });
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws, closed }));
    ws.once("unexpected-response", (_req, res) => {
      ws.terminate();
      resolve({ status: res.statusCode, closed });
    });
    ws.once("error", reject);
  });
}

describe("sign-out", () => {
  it("refuses the ended token for reads, writes and websockets; the user's other session goes on", async () => {
    const kept = await login();
    const ended = await login();
    const { id } = (await (await call(calls.me.path, ended)).json()) as { id: number };

    const out = await call(calls.logout.path, ended, { method: "POST" });
    expect(out.status).toBe(200);

    expect((await call(calls.me.path, ended)).status).toBe(401);
    expect((await call(`/api/user-stocks/${id}`, ended)).status).toBe(401);
    const write = await call(`/api/user-stock/${id}`, ended, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(write.status).toBe(401);
    expect((await socket(ended)).status).toBe(401);

    expect((await call(`/api/user-stocks/${id}`, kept)).status).toBe(200);
    const open = await socket(kept);
    expect(open.ws).toBeDefined();
    open.ws!.close();
  });

  it("refuses the ended token written another way: the signature's spare bits changed", async () => {
    const ended = await login();
    const out = await call(calls.logout.path, ended, { method: "POST" });
    expect(out.status).toBe(200);
    // HS256's 32 bytes take 43 base64url characters; the last one's low 2 bits are spare, so four
    // characters there decode to the same signature. Each spelling is the same token.
    const [signed, signature] = [ended.slice(0, ended.lastIndexOf(".")), ended.slice(ended.lastIndexOf(".") + 1)];
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(signature.at(-1)!);
    const spellings = [0, 1, 2, 3]
      .map((spare) => alphabet[(last & ~3) | spare]!)
      .filter((char) => char !== signature.at(-1))
      .map((char) => `${signed}.${signature.slice(0, -1)}${char}`);
    expect(spellings).toHaveLength(3);
    for (const token of spellings) {
      expect((await call(calls.me.path, token)).status, token.slice(-4)).toBe(401);
      expect((await socket(token)).status).toBe(401);
    }
  });

  it("closes the websockets already open with the ended token", async () => {
    const token = await login();
    const open = await socket(token);
    expect(open.ws).toBeDefined();
    await call(calls.logout.path, token, { method: "POST" });
    expect(await open.closed).toBe(WS_CLOSE_UNAUTHORIZED);
  });
});

describe("sign-out with two provider processes on one PostgreSQL database (npm run test:postgres)", () => {
  it.skipIf(process.env.TEST_DATABASE !== "postgres")(
    "the other process refuses the ended token within moments, though it had just let it in",
    async () => {
      const database = await testPostgresDatabase();
      const options = { databaseUrl: database.url, jobs: false, secrets: ["test-secret-test-secret-test-secret!"] };
      const here = await createProvider({ ...options, seedDemo: true });
      const there = await createProvider(options);
      try {
        const send = (provider: typeof here, path: string, token: string, method = "GET") =>
          provider.fetch(
            new Request(`http://provider.test${path}`, { method, headers: { authorization: `Bearer ${token}` } }),
          );
        const login = await here.fetch(
          new Request("http://provider.test/auth/token", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ username: "demo", password: "demo1234" }),
          }),
        );
        const { access_token: token } = (await login.json()) as { access_token: string };
        // The other process resolves the token (and keeps the caller a few seconds) ...
        expect((await send(there, calls.me.path, token)).status).toBe(200);
        expect((await send(here, calls.logout.path, token, "POST")).status).toBe(200);
        // ... and drops it when the bus brings the sign-out, well before the cache's 5 s are up.
        await expect.poll(async () => (await send(there, calls.me.path, token)).status, { timeout: 2_000 }).toBe(401);
      } finally {
        await there.close();
        await here.close();
        await database.drop();
      }
    },
  );
});
