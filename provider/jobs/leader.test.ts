import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createProvider, type Provider } from "#provider/app.ts";
import { testPostgresDatabase } from "#provider/testing/provider.ts";
import { JOBS_LOCK_KEY } from "./leader.ts";

/**
 * Several provider processes on one PostgreSQL database: exactly one runs the scheduled jobs, and
 * another takes over when it goes away; the bus reaches every process. Run by `npm run test:postgres`.
 */
const postgres = process.env.TEST_DATABASE === "postgres";
const CHILD = fileURLToPath(new URL("./fixtures/provider-process.ts", import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(done: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(20);
  }
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function database() {
  const db = await testPostgresDatabase();
  cleanups.push(() => db.drop());
  return db.url;
}

async function provider(url: string, options: { jobs: boolean; seedDemo?: boolean }): Promise<Provider> {
  const p = await createProvider({
    databaseUrl: url,
    seedDemo: options.seedDemo ?? true,
    secrets: ["test-secret-test-secret-test-secret!"],
    jobs: options.jobs,
    leaderRetryMs: 100,
  });
  cleanups.push(() => p.close());
  return p;
}

/** Sessions holding the jobs lock, from the server's point of view. */
async function lockHolders(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(
      `select count(*)::int as n from pg_locks
        where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())
          and ((classid::bigint << 32) | objid::bigint) = $1`,
      [JOBS_LOCK_KEY],
    );
    return result.rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe.runIf(postgres)("scheduled jobs across provider processes (PostgreSQL advisory lock)", () => {
  it("lets exactly one of two providers lead, and the other take over when it closes", async () => {
    const url = await database();
    const a = await provider(url, { jobs: true });
    const b = await provider(url, { jobs: true });
    await until(() => a.scheduler.isLeader || b.scheduler.isLeader);
    await sleep(400); // several retry rounds: the follower must stay a follower
    expect([a.scheduler.isLeader, b.scheduler.isLeader].filter(Boolean)).toHaveLength(1);
    expect(await lockHolders(url)).toBe(1);

    const [leader, follower] = a.scheduler.isLeader ? [a, b] : [b, a];
    await leader.close();
    await until(() => follower.scheduler.isLeader, 5_000);
    expect(await lockHolders(url)).toBe(1);
  });

  it("generates each flagged ticker once though both providers run the automatic generation", async () => {
    const url = await database();
    const setup = await provider(url, { jobs: false });
    await setup.context.db
      .updateTable("backend_config")
      .set({ value: "1" })
      .where("key", "=", "auto_trade_recommendation_generation_enabled")
      .execute();
    const flagged = await setup.context.db
      .selectFrom("user_stocks")
      .select("stock_id")
      .distinct()
      .where("generate_recommendation", "=", true)
      .execute();

    const a = await provider(url, { jobs: true, seedDemo: false });
    const b = await provider(url, { jobs: true, seedDemo: false });
    const runs = async () =>
      Number(
        (
          await setup.context.db
            .selectFrom("recommendation_runs")
            .select(({ fn }) => fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    await until(async () => (await runs()) >= flagged.length);
    await sleep(500);
    // One run per flagged ticker: the two processes shared them (ADR 0085), none twice.
    expect(await runs()).toBe(flagged.length);
    expect([a.scheduler.isLeader, b.scheduler.isLeader].filter(Boolean)).toHaveLength(1);
  });

  it("takes over when the leading process is killed, and the bus reaches across processes", async () => {
    const url = await database();
    const child: ChildProcess = spawn(process.execPath, [CHILD, url], { stdio: ["ignore", "pipe", "inherit"] });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await until(() => output.includes("leader"), 30_000);

    const b = await provider(url, { jobs: true });
    // The bus: a ping from this process is answered by the other process.
    const pongs: unknown[] = [];
    await b.context.bus.subscribe("pong", (m) => void pongs.push(m));
    await b.context.bus.publish("ping", { from: "test", n: 1 });
    await until(() => pongs.length === 1);
    expect(pongs[0]).toEqual({ from: "test", n: 1 });

    await sleep(400);
    expect(b.scheduler.isLeader).toBe(false);
    expect(await lockHolders(url)).toBe(1);

    child.kill("SIGKILL"); // no cleanup, no unlock: the server notices the session is gone
    await until(() => b.scheduler.isLeader, 10_000);
    expect(await lockHolders(url)).toBe(1);
  }, 60_000);
});
