import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as calls from "#contract/calls.ts";
import { WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "#contract/ws.ts";
import { WS_CLOSE_UNAUTHORIZED } from "#contract/ws-close-codes.ts";
import { startProviderServer, type RunningProvider } from "#provider/server.ts";
import { createLiveRelay, type LiveRelay } from "../../server/live-relay.ts";

/**
 * The relay and ended sessions: a session signed out (its token refused by the provider) opens
 * no socket and loses the ones it has; one session holds at most 20 sockets.
 */
process.env.SESSION_SECRET ??= "live-relay-test-session-secret-0123456789";
const { commitNewSession } = await import("#app/server/session.server.ts");
const { liveSessionOf, providerAccepts } = await import("../../server/live-session.ts");
const { provideAppEnv, readAppEnv } = await import("#app/server/env.server.ts");
const { provideProviderFetch } = await import("#app/server/provider.server.ts");

let provider: RunningProvider;
let app: Server;
let appUrl: string;
let relay: LiveRelay;
const opened: WebSocket[] = [];

async function signedIn(): Promise<{ token: string; cookie: string }> {
  const login = await fetch(`${provider.url}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "demo", password: "demo1234" }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const setCookie = await commitNewSession(token, { id: 2, name: "Demo", email: "demo@example.com", permissions: [] });
  return { token, cookie: setCookie.split(";")[0]! };
}

function browse(
  path: string,
  cookie: string,
  base = appUrl,
): Promise<{ ws?: WebSocket; status?: number; closed: Promise<number> }> {
  const ws = new WebSocket(base.replace(/^http/, "ws") + path, { headers: { cookie } });
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.once("open", () => {
      opened.push(ws);
      resolve({ ws, closed });
    });
    ws.once("unexpected-response", (_req, res) => {
      ws.terminate();
      resolve({ status: res.statusCode, closed });
    });
    ws.once("error", reject);
  });
}

beforeAll(async () => {
  provider = await startProviderServer({
    port: 0,
    host: "127.0.0.1",
    seedDemo: true,
    secrets: ["test-secret-test-secret-test-secret!"],
    jobs: false,
  });
  // As server.ts does: the app's provider calls (the session check among them) go to this provider.
  provideAppEnv({ ...readAppEnv(), PROVIDER_URL: provider.url, SESSION_SECRET: process.env.SESSION_SECRET! });
  relay = createLiveRelay({
    providerUrl: provider.url,
    paths: [WS_STOCK_UPDATES, WS_TRADE_UPDATES],
    authenticate: liveSessionOf,
    verify: providerAccepts,
    recheckMs: 50,
    // Every session here is the demo user's: the per-user cap has its own relay in its test.
    maxSocketsPerUser: 1000,
    log: () => {},
  });
  app = createServer((_req, res) => res.writeHead(404).end());
  app.on("upgrade", (req, socket, head) => {
    if (!relay.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const ws of opened) ws.terminate();
  await relay?.close();
  await new Promise((resolve) => app?.close(resolve));
  await provider?.close();
});

describe("live relay and ended sessions", () => {
  it("refuses a signed-out session's cookie and closes the sockets it had open", async () => {
    const ended = await signedIn();
    const kept = await signedIn();
    const open = await browse(WS_STOCK_UPDATES, ended.cookie);
    const other = await browse(WS_STOCK_UPDATES, kept.cookie);
    expect(open.ws && other.ws).toBeTruthy();

    const out = await fetch(`${provider.url}${calls.logout.path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ended.token}` },
    });
    expect(out.status).toBe(200);

    expect(await open.closed).toBe(WS_CLOSE_UNAUTHORIZED);
    expect((await browse(WS_TRADE_UPDATES, ended.cookie)).status).toBe(401);
    // The same user's other session keeps its socket and opens new ones.
    expect(other.ws!.readyState).toBe(WebSocket.OPEN);
    expect((await browse(WS_TRADE_UPDATES, kept.cookie)).ws).toBeDefined();
  });

  it("asks an embedded provider in-process, with the same answers", async () => {
    const session = await signedIn();
    const asked: string[] = [];
    provideProviderFetch((request) => {
      // Only this session's questions: the earlier tests' sockets still recheck their own tokens.
      if (request.headers.get("authorization") === `Bearer ${session.token}`)
        asked.push(`${request.method} ${new URL(request.url).pathname}`);
      return provider.provider.fetch(request);
    });
    try {
      expect(await providerAccepts(session.token)).toBe(true);
      await fetch(`${provider.url}${calls.logout.path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(await providerAccepts(session.token)).toBe(false);
    } finally {
      provideProviderFetch(undefined);
    }
    expect(asked).toEqual([`GET ${calls.me.path}`, `GET ${calls.me.path}`]);
  });

  it("admits 20 of 25 upgrades of one session sent at once, and refuses the rest with 429", async () => {
    const session = await signedIn();
    const all = await Promise.all(
      Array.from({ length: 25 }, (_, i) => browse(i % 2 ? WS_STOCK_UPDATES : WS_TRADE_UPDATES, session.cookie)),
    );
    expect(all.filter((b) => b.ws)).toHaveLength(20);
    expect(all.filter((b) => b.status === 429)).toHaveLength(5);
    for (const b of all) b.ws?.close();
  });

  it("admits at most 20 sockets per session, over all paths", async () => {
    const session = await signedIn();
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, i) => browse(i % 2 ? WS_STOCK_UPDATES : WS_TRADE_UPDATES, session.cookie)),
    );
    expect(first.every((b) => b.ws)).toBe(true);
    expect((await browse(WS_STOCK_UPDATES, session.cookie)).status).toBe(429);
    expect((await browse(WS_TRADE_UPDATES, session.cookie)).status).toBe(429);
    // Another session is not held back by it; a closed socket frees a place.
    expect((await browse(WS_STOCK_UPDATES, (await signedIn()).cookie)).ws).toBeDefined();
    first[0]!.ws!.close();
    await first[0]!.closed;
    expect((await browse(WS_STOCK_UPDATES, session.cookie)).ws).toBeDefined();
  });

  it("caps one user's sockets over all their sessions: 5 sessions at once get the user's 6, the rest 429", async () => {
    // A relay of its own with low caps (2 a session, 6 a user), so the file's other sockets of the demo user do not count.
    const capped = createLiveRelay({
      providerUrl: provider.url,
      paths: [WS_STOCK_UPDATES, WS_TRADE_UPDATES],
      authenticate: liveSessionOf,
      maxSocketsPerSession: 2,
      maxSocketsPerUser: 6,
      log: () => {},
    });
    const server = createServer((_req, res) => res.writeHead(404).end());
    server.on("upgrade", (req, socket, head) => {
      if (!capped.handleUpgrade(req, socket, head)) socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const sessions = await Promise.all(Array.from({ length: 5 }, () => signedIn()));
      const all = await Promise.all(
        sessions.flatMap((session) => [
          browse(WS_STOCK_UPDATES, session.cookie, base),
          browse(WS_TRADE_UPDATES, session.cookie, base),
        ]),
      );
      expect(all.filter((b) => b.ws)).toHaveLength(6);
      expect(all.filter((b) => b.status === 429)).toHaveLength(4);
      // A closed socket gives the user a place back.
      const open = all.find((b) => b.ws)!;
      open.ws!.close();
      await open.closed;
      const waiting = sessions.find((_, i) => !all[i * 2]!.ws && !all[i * 2 + 1]!.ws) ?? sessions[0]!;
      expect((await browse(WS_STOCK_UPDATES, waiting.cookie, base)).ws).toBeDefined();
    } finally {
      await capped.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
