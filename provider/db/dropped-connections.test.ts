import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { testPostgresDatabase } from "#provider/testing/provider.ts";

/**
 * PostgreSQL mode (`npm run test:postgres`): the database drops every connection while requests
 * are in flight (an operator's pg_terminate_backend, a failover). The provider processes stay up,
 * the requests that lost their connection answer 503 with a readable detail, and the next
 * requests are served again on fresh connections.
 */
const postgres = process.env.TEST_DATABASE === "postgres";
const SERVER = fileURLToPath(new URL("../ws/fixtures/live-provider-process.ts", import.meta.url));
const JOBS = fileURLToPath(new URL("../jobs/fixtures/provider-process.ts", import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

interface Child {
  process: ChildProcess;
  lines: string[];
  output: string[];
}

function start(script: string, databaseUrl: string): Child {
  const child = spawn(process.execPath, [script, databaseUrl], { stdio: ["ignore", "pipe", "pipe"] });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  const state: Child = { process: child, lines: [], output: [] };
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    state.output.push(String(chunk));
    buffer += chunk.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    state.lines.push(...lines);
  });
  child.stderr!.on("data", (chunk: Buffer) => state.output.push(String(chunk)));
  return state;
}

async function until(done: () => boolean, what: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (child.process.exitCode !== null)
      throw new Error(`${what}: the process exited\n${child.output.join("").slice(-2000)}`);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe.runIf(postgres)("connections dropped by the database (PostgreSQL)", () => {
  it("keeps both provider processes up and answers the requests that lost their connection 503", async () => {
    const { url: databaseUrl, drop } = await testPostgresDatabase();
    cleanups.push(drop);
    const server = start(SERVER, databaseUrl);
    await until(() => server.lines.some((l) => l.startsWith("url ")), "the provider server to start", server);
    const jobs = start(JOBS, databaseUrl);
    await until(() => jobs.lines.includes("ready"), "the jobs process to start", jobs);
    const base = server.lines.find((l) => l.startsWith("url "))!.slice(4);

    const login = await fetch(`${base}/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "demo", password: "demo1234" }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const me = await fetch(`${base}/auth/users/me`, { headers: { authorization: `Bearer ${token}` } });
    const { id } = (await me.json()) as { id: number };
    const read = () =>
      fetch(`${base}/api/user-stocks/${id}`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as unknown,
      }));
    // A connection the server dropped is recorded as status 0 (the process died or hung up).
    const readOrFail = () => read().catch((error: Error) => ({ status: 0, body: error.message }));
    expect((await read()).status).toBe(200);

    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    const terminateAll = () =>
      admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );

    // Eight readers keep requests in flight while every connection is dropped, several times over.
    const answers: { status: number; body: unknown }[] = [];
    let loading = true;
    const readers = Array.from({ length: 8 }, async () => {
      while (loading) answers.push(await readOrFail());
    });
    for (let round = 0; round < 10; round++) {
      await until(() => answers.length >= (round + 1) * 10, "requests answered", server);
      await terminateAll();
    }
    loading = false;
    await Promise.all(readers);

    // Every request was answered: served, or refused as unavailable with a detail a person can read.
    for (const answer of answers) {
      if (answer.status === 200) continue;
      expect(answer).toEqual({ status: 503, body: { detail: expect.stringMatching(/database.*unavailable/i) } });
    }
    expect(answers.some((a) => a.status === 503)).toBe(true);

    // Both processes are alive and the server serves again on fresh connections. (The pool may
    // still hold a connection the last round killed: one more 503 is allowed, then it must serve.)
    let status = (await read()).status;
    if (status !== 200) status = (await read()).status;
    expect(status).toBe(200);
    expect(server.process.exitCode).toBe(null);
    expect(jobs.process.exitCode).toBe(null);
  });
});
