/**
 * Resident memory of the app as `npm start` runs it (production server.ts with its embedded
 * provider and the demo data), idle and under load, in two modes:
 *  - embedded: PGlite in a data folder (first start on a new folder, then a restart on it);
 *  - postgres: DATABASE_URL=<BENCH_DATABASE_URL's server>/<a database of its own>, when
 *    BENCH_DATABASE_URL is set (e.g. postgres://postgres@127.0.0.1:5432/postgres); the figure is
 *    the app's process only, not the PostgreSQL server's.
 * RSS is VmRSS from /proc of the process and all its descendants. "Idle" is after start-up jobs
 * settle: at least IDLE_AFTER_S seconds after the health check answers and until the process tree
 * used under 2 % of a CPU over 5 s; then the median of 5 one-second samples. Load: LOAD_SOCKETS
 * signed-in websockets on /ws/stock-updates, and autocannon (10 connections × BENCH_DURATION s)
 * on /user-stocks signed in as `demo`; the peak is the highest 250 ms sample during it. After load:
 * sockets closed, 15 s later. Goal (docs/benchmarks.md#memory): idle embedded under 300 MB.
 *
 *   npm run build && npm run bench -- memory      or      node bench/memory.bench.ts
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { WebSocket } from "ws";
import { WS_STOCK_UPDATES } from "#contract/ws.ts";
import { report } from "./report.ts";
import { appSession, freePort, root, sleep } from "./support/processes.ts";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const IDLE_AFTER_S = Number(process.env.BENCH_IDLE_AFTER ?? 30);
const LOAD_SOCKETS = Number(process.env.BENCH_SOCKETS ?? 200);
const GOAL_IDLE_MB = 300;

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** The process and every descendant, from /proc/<pid>/task/<tid>/children (Linux). */
function tree(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const list = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (list) children.push(...list.split(" ").map(Number));
    }
  } catch {
    return [];
  }
  return [pid, ...children.flatMap(tree)];
}

function statusField(pid: number, field: string): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of the process tree, in bytes. */
const rss = (pid: number) => tree(pid).reduce((sum, p) => sum + statusField(p, "VmRSS"), 0);

/** CPU time (user + system) of the process tree, in ms (USER_HZ is 100). */
function cpuMs(pid: number): number {
  return tree(pid).reduce((sum, p) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      return sum + (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return sum;
    }
  }, 0);
}

interface Running {
  url: string;
  child: ChildProcess;
  startedMs: number;
  stop(): Promise<void>;
}

/**
 * The settings `npm start` puts before `node server.ts` in package.json (NODE_ENV, SEED_DEMO,
 * GLIBC_TUNABLES…), with their defaults: the bench starts node itself, without npm's own process.
 */
function startScriptEnv(): Record<string, string> {
  const script = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { start: string } })
    .scripts.start;
  const env: Record<string, string> = {};
  for (const [, name, fallback, value] of script.split(" node ")[0]!.matchAll(/(\w+)=(?:\$\{\w+:-([^}]*)\}|(\S+))/g)) {
    env[name!] = (fallback ?? value)!;
  }
  return env;
}

/** `npm start`'s command and settings (startScriptEnv) with its own folder and ports. */
async function start(dataDir: string, extra: Record<string, string>): Promise<Running> {
  const [port, providerPort] = [await freePort(), await freePort()];
  const url = `http://localhost:${port}`;
  const began = Date.now();
  const child = spawn(process.execPath, [join(root, "server.ts")], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      ...startScriptEnv(),
      PORT: String(port),
      HOST: "127.0.0.1",
      PROVIDER_PORT: String(providerPort),
      DATA_DIR: dataDir,
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      ...extra,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  };
  while (
    !(await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() - began > 180_000) {
      await stop();
      throw new Error("server.ts did not start");
    }
    await sleep(250);
  }
  return { url, child, startedMs: Date.now() - began, stop };
}

/** Waits for start-up jobs to settle (see the file comment), then the median of five samples. */
async function idle(pid: number): Promise<{ rss_mb: number; settled_after_s: number }> {
  const began = Date.now();
  await sleep(IDLE_AFTER_S * 1000);
  for (;;) {
    const before = cpuMs(pid);
    await sleep(5000);
    if (cpuMs(pid) - before < 100 || Date.now() - began > 300_000) break;
  }
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rss(pid));
    await sleep(1000);
  }
  samples.sort((a, b) => a - b);
  return { rss_mb: mb(samples[2]!), settled_after_s: Math.round((Date.now() - began) / 1000) };
}

/** The relay allows 20 sockets per session (server/live-relay.ts): one sign-in per 20 sockets. */
const SOCKETS_PER_SESSION = 20;

async function openSockets(url: string, count: number): Promise<WebSocket[]> {
  const wsUrl = url.replace(/^http/, "ws") + WS_STOCK_UPDATES;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < count; i += SOCKETS_PER_SESSION) {
    const cookie = await appSession(url, "demo", "demo1234");
    await Promise.all(
      Array.from(
        { length: Math.min(SOCKETS_PER_SESSION, count - i) },
        () =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(wsUrl, { headers: { cookie }, perMessageDeflate: false });
            sockets.push(ws);
            ws.on("message", () => {});
            ws.once("open", () => resolve());
            ws.once("unexpected-response", (_q, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
            ws.once("error", reject);
          }),
      ),
    );
  }
  return sockets;
}

interface ModeFigures {
  start_s: number;
  idle_rss_mb: number;
  idle_settled_after_s: number;
  load_peak_rss_mb: number;
  after_load_rss_mb: number;
  load_requests_per_second: number;
  load_non_2xx: number;
  sockets: number;
}

/** One start: idle, then load, then after load. */
async function measure(running: Running): Promise<ModeFigures> {
  const pid = running.child.pid!;
  const rest = await idle(pid);
  const cookie = await appSession(running.url, "demo", "demo1234");
  let peak = rss(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 250);
  let sockets: WebSocket[] = [];
  let load;
  try {
    sockets = await openSockets(running.url, LOAD_SOCKETS);
    load = await autocannon({
      url: `${running.url}/user-stocks`,
      headers: { cookie, accept: "text/html" },
      connections: 10,
      duration: DURATION_S,
    });
  } finally {
    clearInterval(sampler);
    for (const ws of sockets) ws.terminate();
  }
  peak = Math.max(peak, rss(pid));
  await sleep(15_000);
  return {
    start_s: Math.round(running.startedMs / 100) / 10,
    idle_rss_mb: rest.rss_mb,
    idle_settled_after_s: rest.settled_after_s,
    load_peak_rss_mb: mb(peak),
    after_load_rss_mb: mb(rss(pid)),
    load_requests_per_second: Math.round(load.requests.average * 10) / 10,
    load_non_2xx: load.non2xx,
    sockets: sockets.length,
  };
}

async function embedded(): Promise<{ first_start: ModeFigures; restart: ModeFigures }> {
  const dataDir = mkdtempSync(join(tmpdir(), "putseller-bench-memory-"));
  try {
    let running = await start(dataDir, {});
    let first_start: ModeFigures;
    try {
      first_start = await measure(running);
    } finally {
      await running.stop();
    }
    running = await start(dataDir, {});
    try {
      return { first_start, restart: await measure(running) };
    } finally {
      await running.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgres(serverUrl: string): Promise<ModeFigures> {
  const pg = (await import("pg")).default;
  const name = `bench_memory_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const dataDir = mkdtempSync(join(tmpdir(), "putseller-bench-memory-pg-"));
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const running = await start(dataDir, { DATABASE_URL: url.href });
    try {
      return await measure(running);
    } finally {
      await running.stop();
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const onlyMode = process.env.BENCH_MEMORY_MODE; // "embedded" or "postgres" to run one
const result: Record<string, unknown> = {
  goal_idle_embedded_mb: GOAL_IDLE_MB,
  start_env: startScriptEnv(),
  sockets: LOAD_SOCKETS,
  load_duration_s: DURATION_S,
};
const line = (name: string, f: ModeFigures) =>
  `${name.padEnd(22)} start ${f.start_s} s   idle ${f.idle_rss_mb} MB   peak ${f.load_peak_rss_mb} MB   after ${f.after_load_rss_mb} MB   (${f.load_requests_per_second} req/s, ${f.sockets} sockets, non-2xx ${f.load_non_2xx})`;
const headline: Record<string, number> = {};
if (onlyMode !== "postgres") {
  const figures = await embedded();
  result.embedded = figures;
  console.log(line("embedded, first start", figures.first_start));
  console.log(line("embedded, restart", figures.restart));
  headline["idle MB"] = figures.restart.idle_rss_mb;
  headline["peak MB"] = figures.restart.load_peak_rss_mb;
  headline["after MB"] = figures.restart.after_load_rss_mb;
}
const pgServer = process.env.BENCH_DATABASE_URL;
if (onlyMode !== "embedded" && pgServer) {
  const figures = await postgres(pgServer);
  result.postgres = figures;
  console.log(line("postgres (app only)", figures));
  headline["pg idle MB"] = figures.idle_rss_mb;
  headline["pg peak MB"] = figures.load_peak_rss_mb;
}
result.headline = headline;
report(result);
