import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { testPostgresDatabase } from "#provider/testing/provider.ts";

/**
 * The price refresh shared by two provider processes on one PostgreSQL server (ADR 0085): both
 * take stocks from the round, and when one dies in the middle of it, holding a claim, the other
 * takes that claim over once its lease expires and every stock is still refreshed exactly once.
 * Two processes need a server: skipped on PGlite (provider/jobs/partitions.test.ts covers the
 * claims in one process on both).
 */
const postgres = process.env.TEST_DATABASE === "postgres";
const CHILD = fileURLToPath(new URL("./fixtures/partitioned-provider-process.ts", import.meta.url));
const EXTRA_STOCKS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(done: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

interface Child {
  process: ChildProcess;
  url: string;
  quoted: string[];
  stalled: boolean;
}

async function startChild(databaseUrl: string, stallAfter?: number): Promise<Child> {
  const args = [CHILD, databaseUrl, ...(stallAfter === undefined ? [] : [String(stallAfter)])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  const state: Child = { process: child, url: "", quoted: [], stalled: false };
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith("url ")) state.url = line.slice(4);
      else if (line.startsWith("quote ")) state.quoted.push(line.slice(6));
      else if (line === "stalled") state.stalled = true;
    }
  });
  await until(() => state.url !== "", 60_000, "a provider process to start");
  return state;
}

describe.runIf(postgres)("price refresh across provider processes (PostgreSQL)", () => {
  it("shares a round between two processes, and one killed mid-round leaves no stock skipped or done twice", async () => {
    const { url: databaseUrl, drop } = await testPostgresDatabase();
    cleanups.push(drop);
    // One process stops answering at its 6th quote: it dies holding a claim mid-round.
    const doomed = await startChild(databaseUrl, 5);
    const survivor = await startChild(databaseUrl);

    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    // More followed stocks than the demo's, so the round lasts a few seconds.
    await admin.query(
      `INSERT INTO stocks (ticker, name) SELECT 'ZZ' || g, 'Test ' || g FROM generate_series(1, ${EXTRA_STOCKS}) g`,
    );
    await admin.query(
      `INSERT INTO user_stocks (user_id, stock_id)
       SELECT (SELECT id FROM users WHERE username = 'demo'), id FROM stocks WHERE ticker LIKE 'ZZ%'`,
    );
    const switchedOn = new Date();
    await admin.query(`UPDATE backend_config SET value = '1' WHERE key = 'auto_refresh_enabled'`);

    await until(() => doomed.stalled, 30_000, "the doomed process to stall");
    const held = doomed.quoted.length;
    doomed.process.kill("SIGKILL");
    expect(survivor.quoted.length).toBeGreaterThan(0);

    const followed = async () =>
      (
        await admin.query<{ ticker: string; runs: number | null; updated_at: Date | null }>(
          `SELECT s.ticker, p.runs::int AS runs, s.updated_at FROM stocks s
           LEFT JOIN job_partitions p ON p.stock_id = s.id AND p.job = 'prices'
           WHERE EXISTS (SELECT 1 FROM user_stocks u WHERE u.stock_id = s.id AND u.active = 1)
              OR EXISTS (SELECT 1 FROM uip_stocks u WHERE u.stock_id = s.id AND u.active = 1)
           ORDER BY s.ticker`,
        )
      ).rows;
    await until(async () => (await followed()).every((r) => (r.runs ?? 0) >= 1), 30_000, "every stock refreshed");
    // Past the lease of anything still held, nothing more happens in this round.
    await sleep(2_500);

    const rows = await followed();
    expect(rows.length).toBeGreaterThanOrEqual(EXTRA_STOCKS);
    for (const row of rows) {
      expect({ ticker: row.ticker, runs: row.runs }).toEqual({ ticker: row.ticker, runs: 1 });
      expect(row.updated_at!.getTime()).toBeGreaterThanOrEqual(switchedOn.getTime() - 1_000);
    }
    // Both processes did part of the round; the stock the dead one was quoting is among the survivor's.
    expect(held).toBe(5);
    const allQuoted = new Set([...doomed.quoted, ...survivor.quoted]);
    expect(survivor.quoted.length).toBeGreaterThan(rows.length - held - 2);
    expect(rows.map((r) => r.ticker).filter((t) => !allQuoted.has(t))).toEqual([]);
    // The survivor asked the vendor once per stock, except for those the dead process had taken.
    expect(new Set(survivor.quoted).size).toBe(survivor.quoted.length);
  }, 120_000);
});
