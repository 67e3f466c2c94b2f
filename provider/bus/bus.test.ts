import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "#provider/db/client.ts";
import { testPostgresDatabase } from "#provider/testing/provider.ts";
import { createDecoder, createEventBus, encodeNotifications, type EventBus } from "./bus.ts";

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("NOTIFY payloads", () => {
  it("sends a small message inline and a large one in parts under PostgreSQL's 8000-byte limit", () => {
    const small = { type: "x", data: [1, 2, 3] };
    expect(encodeNotifications(small)).toEqual([`m${JSON.stringify(small)}`]);
    const large = { rows: Array.from({ length: 400 }, (_, i) => ({ i, text: "Ünïcødé 📈 行情 ".repeat(3) })) };
    const parts = encodeNotifications(large);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThan(8000);
    const decode = createDecoder();
    const results = parts.map(decode);
    expect(results.slice(0, -1).every((r) => r === undefined)).toBe(true);
    expect(results.at(-1)).toEqual(large);
  });

  it("reassembles interleaved and out-of-order parts of different messages", () => {
    const a = { a: "x".repeat(20_000) };
    const b = { b: "y".repeat(15_000) };
    const pa = encodeNotifications(a);
    const pb = encodeNotifications(b);
    const decode = createDecoder();
    const out: unknown[] = [];
    for (const p of [pa[2]!, pb[0]!, pa[0]!, pb[2]!, pa[1]!, pb[1]!, ...pa.slice(3), ...pb.slice(3)]) {
      const m = decode(p);
      if (m !== undefined) out.push(m);
    }
    expect(out).toEqual(expect.arrayContaining([a, b]));
    expect(out).toHaveLength(2);
  });
});

describe("event bus in one process (PGlite)", () => {
  let database: DatabaseHandle;
  let bus: EventBus;
  beforeAll(async () => {
    database = await openDatabase({});
    bus = createEventBus({ db: database.db, kind: database.kind });
  });
  afterAll(async () => {
    await bus.close();
    await database.close();
  });

  it("delivers to every subscriber of the channel, in publish order, and nothing from other channels", async () => {
    const a: unknown[] = [];
    const b: unknown[] = [];
    const other: unknown[] = [];
    const stops = [
      await bus.subscribe("one", (m) => void a.push(m)),
      await bus.subscribe("one", (m) => void b.push(m)),
      await bus.subscribe("two", (m) => void other.push(m)),
    ];
    for (let i = 0; i < 20; i++) await bus.publish("one", { i });
    await until(() => a.length === 20 && b.length === 20);
    expect(a).toEqual(Array.from({ length: 20 }, (_, i) => ({ i })));
    expect(b).toEqual(a);
    expect(other).toEqual([]);
    for (const stop of stops) await stop();
  });

  it("gives subscribers a copy, as a server round trip would", async () => {
    const seen: { n: number; when?: string }[] = [];
    const stop = await bus.subscribe("copy", (m) => void seen.push(m as { n: number }));
    const message = { n: 1, when: new Date("2026-11-18T17:00:00Z") as unknown as string };
    await bus.publish("copy", message);
    message.n = 2;
    await until(() => seen.length === 1);
    expect(seen[0]).toEqual({ n: 1, when: "2026-11-18T17:00:00.000Z" });
    await stop();
  });

  it("keeps delivering when one subscriber throws, and stops after unsubscribe", async () => {
    const seen: unknown[] = [];
    const errors = console.error;
    console.error = () => {};
    try {
      const bad = await bus.subscribe("robust", () => {
        throw new Error("boom");
      });
      const good = await bus.subscribe("robust", (m) => void seen.push(m));
      await bus.publish("robust", 1);
      await until(() => seen.length === 1);
      await good();
      await bus.publish("robust", 2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual([1]);
      await bad();
    } finally {
      console.error = errors;
    }
  });
});

describe.runIf(process.env.TEST_DATABASE === "postgres")(
  "event bus across processes (PostgreSQL LISTEN/NOTIFY)",
  () => {
    let dbUrl: { url: string; drop(): Promise<void> };
    let first: DatabaseHandle;
    let second: DatabaseHandle;
    let a: EventBus;
    let b: EventBus;
    beforeAll(async () => {
      dbUrl = await testPostgresDatabase();
      first = await openDatabase({ databaseUrl: dbUrl.url });
      second = await openDatabase({ databaseUrl: dbUrl.url });
      a = createEventBus({ db: first.db, kind: first.kind, databaseUrl: dbUrl.url, reconnectMs: 100 });
      b = createEventBus({ db: second.db, kind: second.kind, databaseUrl: dbUrl.url, reconnectMs: 100 });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await first?.close();
      await second?.close();
      await dbUrl?.drop();
    });

    it("delivers a message published by one instance to the subscribers of both, in order, large ones intact", async () => {
      const onA: unknown[] = [];
      const onB: unknown[] = [];
      const stopA = await a.subscribe("trade_updates", (m) => void onA.push(m));
      const stopB = await b.subscribe("trade_updates", (m) => void onB.push(m));
      const big = {
        type: "trade_recommendations_update",
        ticker: "AAPL",
        data: Array.from({ length: 60 }, (_, i) => ({ id: i, note: "é📈".repeat(50) })),
      };
      const sent = [{ n: 1 }, big, { n: 3 }, big, { n: 5 }];
      for (const m of sent) await a.publish("trade_updates", m);
      await until(() => onA.length === 5 && onB.length === 5);
      expect(onB).toEqual(sent);
      expect(onA).toEqual(sent);
      await stopA();
      await stopB();
    });

    it("reconnects its listening connection when the server drops it", async () => {
      const seen: unknown[] = [];
      const stop = await b.subscribe("resilient", (m) => void seen.push(m));
      await a.publish("resilient", "before");
      await until(() => seen.length === 1);

      const admin = new pg.Client({ connectionString: dbUrl.url });
      await admin.connect();
      const errors = console.error;
      console.error = () => {};
      try {
        const killed = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN%'`,
        );
        expect(killed.rowCount).toBeGreaterThan(0);
        // Publish until the reconnected listener hears one (messages sent while it was away are lost).
        const end = Date.now() + 10_000;
        while (!seen.includes("after") && Date.now() < end) {
          await a.publish("resilient", "after");
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(seen).toContain("after");
      } finally {
        console.error = errors;
        await admin.end();
      }
      await stop();
    });
  },
);
