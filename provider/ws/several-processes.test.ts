import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { StockPriceUpdate, WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "#contract/ws.ts";
import { createEventBus } from "#provider/bus/bus.ts";
import { TRADE_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import { openDatabase } from "#provider/db/client.ts";
import { testPostgresDatabase } from "#provider/testing/provider.ts";

/**
 * Two provider processes on one PostgreSQL database (`npm run test:postgres`): what the price job
 * (shared by both, ADR 0085) publishes reaches the websocket clients of both processes, a message
 * published from elsewhere reaches both too, and when the leader is killed the other process takes
 * over the job and its clients keep getting prices.
 */
const postgres = process.env.TEST_DATABASE === "postgres";
const CHILD = fileURLToPath(new URL("./fixtures/live-provider-process.ts", import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(done: () => boolean, timeoutMs = 15_000, what = "condition"): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

interface Child {
  process: ChildProcess;
  url: string;
  leader: boolean;
  /** Vendor calls since the server was up (seeding's quotes are not counted). */
  quotes: number;
}

async function startChild(databaseUrl: string): Promise<Child> {
  const child = spawn(process.execPath, [CHILD, databaseUrl], { stdio: ["ignore", "pipe", "inherit"] });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  const state: Child = { process: child, url: "", leader: false, quotes: 0 };
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith("url ")) state.url = line.slice(4);
      else if (line === "leader") state.leader = true;
      else if (line === "follower") state.leader = false;
      else if (line.startsWith("quote ") && state.url) state.quotes++;
    }
  });
  await until(() => state.url !== "", 60_000, "a provider process to start");
  return state;
}

async function tokenOf(url: string): Promise<string> {
  const response = await fetch(`${url}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "demo", password: "demo1234" }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A websocket client of one process, collecting what it receives. */
async function client(url: string, path: string, token: string): Promise<{ messages: unknown[]; ws: WebSocket }> {
  const ws = new WebSocket(url.replace(/^http/, "ws") + path, { headers: { authorization: `Bearer ${token}` } });
  const messages: unknown[] = [];
  ws.on("message", (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  cleanups.push(async () => ws.terminate());
  return { messages, ws };
}

describe.runIf(postgres)("live updates across provider processes (PostgreSQL)", () => {
  it("every process's clients get what any process publishes, and the survivor keeps refreshing", async () => {
    const { url: databaseUrl, drop } = await testPostgresDatabase();
    cleanups.push(drop);
    const a = await startChild(databaseUrl);
    const b = await startChild(databaseUrl);
    await until(() => a.leader || b.leader, 15_000, "a leader");

    const token = await tokenOf(a.url);
    const [pricesA, pricesB, tradesA, tradesB] = await Promise.all([
      client(a.url, WS_STOCK_UPDATES, token),
      client(b.url, WS_STOCK_UPDATES, token),
      client(a.url, WS_TRADE_UPDATES, token),
      client(b.url, WS_TRADE_UPDATES, token),
    ]);

    // Auto refresh on: the leader's job starts publishing within its 1 s interval.
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    await admin.query(`update backend_config set value = '1' where key = 'auto_refresh_enabled'`);

    await until(() => pricesA.messages.length >= 3 && pricesB.messages.length >= 3, 20_000, "prices on both");
    for (const m of [...pricesA.messages, ...pricesB.messages]) StockPriceUpdate.parse(m);
    // The same messages, whichever process the client is on (compare a stretch both saw).
    const last = JSON.stringify(pricesA.messages.at(-2));
    expect(pricesB.messages.map((m) => JSON.stringify(m))).toContain(last);
    // The processes share the refresh stock by stock (ADR 0085), leader or not.
    const [leader, follower] = a.leader ? [a, b] : [b, a];
    expect(follower.leader).toBe(false);
    expect(leader.quotes + follower.quotes).toBeGreaterThan(0);

    // A message published by a third party on the database reaches both processes' clients.
    const database = await openDatabase({ databaseUrl });
    const bus = createEventBus({ db: database.db, kind: database.kind, databaseUrl });
    cleanups.push(async () => {
      await bus.close();
      await database.close();
    });
    const update = { type: "trade_recommendations_update", ticker: "AAPL", data: [] };
    await bus.publish(TRADE_UPDATES_CHANNEL, update);
    await until(() => tradesA.messages.length === 1 && tradesB.messages.length === 1, 10_000, "the trade update");
    expect(tradesA.messages).toEqual([update]);
    expect(tradesB.messages).toEqual([update]);

    // Kill the leader: the follower takes over the job, and its clients keep getting prices.
    const followerPrices = follower === a ? pricesA : pricesB;
    leader.process.kill("SIGKILL");
    await until(() => follower.leader, 20_000, "the follower to take over");
    const seen = followerPrices.messages.length;
    await until(() => followerPrices.messages.length >= seen + 2, 20_000, "prices after the takeover");
    expect(follower.quotes).toBeGreaterThan(0);
  }, 120_000);
});
