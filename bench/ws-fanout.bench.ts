/**
 * Live price fan-out through the app's relay (goals: p99 under 100 ms at 2,000 clients, under
 * 30 KB per connection). A provider runs in this process (PGlite in memory); the app is the real
 * production server.ts in its own process (BUILD_DIR, default `build`: run `npm run build` first),
 * pointed at it with PROVIDER_URL. For 1,000 and then 2,000 signed-in websocket clients on the
 * app's /ws/stock-updates, each round publishes one stock_price_update on the provider's bus and
 * times it until the LAST client has received it (median and p99 over the rounds). Memory per
 * connection is the app process's resident memory with the clients connected, less before, over
 * the count. The app's CPU time per round (from /proc) is the relay's cost of one fan-out, far less
 * sensitive than the latencies to what else the machine is running.
 * BENCH_APPS=2 starts two app processes and spreads the clients over them (memory and CPU are
 * then their sums). Loopback only; bounded rounds and timeouts; stops by itself.
 *
 *   npm run build && npm run bench -- ws-fanout      or      npx node bench/ws-fanout.bench.ts
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { WS_STOCK_UPDATES } from "#contract/ws.ts";
import { STOCK_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import { startProviderServer } from "#provider/server.ts";
import { median, report } from "./report.ts";
import { appSession, freePort, sleep, startScript } from "./support/processes.ts";
import { cpuMs, loadAverage, rssBytes } from "./support/proc.ts";

const COUNTS = (process.env.BENCH_CLIENTS ?? "1000,2000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const ROUND_TIMEOUT_MS = 5_000;
const GOALS = { p99Ms: 100, bytesPerConnection: 30 * 1024, atClients: 2000 };
const require = createRequire(import.meta.url);

const r1 = (x: number) => Math.round(x * 10) / 10;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * p) - 1)]!;

async function startApp(providerUrl: string): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = await startScript(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PROVIDER_URL: providerUrl,
      DATA_DIR: mkdtempSync(join(tmpdir(), "putseller-bench-ws-")),
      SESSION_SECRET: "bench-ws-fanout-session-secret-0123456789abcdef",
      COOKIE_SECURE: "false",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
    },
    `${url}/healthz`,
  );
  return { url, ...started };
}

/**
 * The clients run in worker threads (like browsers, they do not share the provider's event loop);
 * each reports, per round, how many of its clients got the message and when the last one did
 * (absolute time: performance.timeOrigin + performance.now(), comparable across threads).
 */
/**
 * BENCH_APPS app processes (ADR 0013's lever: one upstream connection each, on more cores), each
 * on its own port with the same provider and session secret; the client threads are spread over
 * them (at least one thread per app), as a load balancer in front would spread browsers.
 */
const APPS = Number(process.env.BENCH_APPS ?? 1);
/** The relay lets one session hold this many sockets (server/live-relay.ts), so the clients use many sessions. */
const SOCKETS_PER_SESSION = 20;
const WORKERS = Math.max(APPS, Number(process.env.BENCH_CLIENT_THREADS ?? 1));
const workerSource = `
  const { parentPort, workerData } = require("node:worker_threads");
  const WebSocket = require(workerData.wsPath);
  const sockets = [];
  const received = new Map();
  const now = () => performance.timeOrigin + performance.now();
  function onMessage(data) {
    const at = now();
    const message = JSON.parse(String(data));
    const seq = Math.round(message.data.current_price * 100) - 10000;
    const entry = received.get(seq) || { count: 0, first: at, last: 0 };
    entry.count++;
    entry.last = at;
    received.set(seq, entry);
    if (entry.count === sockets.length) parentPort.postMessage({ type: "round", seq, first: entry.first, last: entry.last });
  }
  parentPort.on("message", async (command) => {
    if (command.type === "connect") {
      let opened = 0;
      for (let i = 0; i < command.count; i += 100) {
        await Promise.all(Array.from({ length: Math.min(100, command.count - i) }, () => new Promise((resolve, reject) => {
          const cookie = command.cookies[Math.floor(opened++ / command.perSession)];
          const ws = new WebSocket(command.url, { headers: { cookie }, perMessageDeflate: false });
          ws.on("message", onMessage);
          sockets.push(ws);
          ws.once("open", resolve);
          ws.once("unexpected-response", (_q, res) => reject(new Error("upgrade refused: " + res.statusCode)));
          ws.once("error", reject);
        })));
      }
      parentPort.postMessage({ type: "connected" });
    } else if (command.type === "close") {
      for (const ws of sockets) ws.terminate();
      sockets.length = 0;
      received.clear();
      parentPort.postMessage({ type: "closed" });
    }
  });
`;

interface ClientThreads {
  connect(count: number): Promise<void>;
  /** Resolves with [first, last] absolute receipt times of round `seq` over all clients, or null on timeout. */
  round(seq: number, timeoutMs: number): Promise<[number, number] | null>;
  close(): Promise<void>;
  stop(): Promise<void>;
}

function clientThreads(urls: string[], cookies: string[]): ClientThreads {
  const workers = Array.from(
    { length: WORKERS },
    () => new Worker(workerSource, { eval: true, workerData: { wsPath: require.resolve("ws") } }),
  );
  const done = new Map<number, { first: number; last: number; n: number }>();
  const waiters = new Map<number, () => void>();
  for (const worker of workers) {
    worker.on("message", (m: { type: string; seq: number; first: number; last: number }) => {
      if (m.type !== "round") return;
      const entry = done.get(m.seq) ?? { first: Infinity, last: 0, n: 0 };
      entry.first = Math.min(entry.first, m.first);
      entry.last = Math.max(entry.last, m.last);
      entry.n++;
      done.set(m.seq, entry);
      if (entry.n === workers.length) waiters.get(m.seq)?.();
    });
  }
  const ask = (worker: Worker, command: object, reply: string) =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== reply) return;
        worker.off("message", onMessage);
        resolve();
      };
      worker.on("message", onMessage);
      worker.once("error", reject);
      worker.postMessage(command);
    });
  return {
    async connect(count) {
      const share = (i: number) => Math.floor(count / workers.length) + (i < count % workers.length ? 1 : 0);
      // Each thread signs its clients in with sessions of its own, SOCKETS_PER_SESSION a session.
      const perThread = Math.ceil(cookies.length / workers.length);
      await Promise.all(
        workers.map((w, i) =>
          ask(
            w,
            {
              type: "connect",
              count: share(i),
              url: urls[i % urls.length],
              cookies: cookies.slice(i * perThread, (i + 1) * perThread),
              perSession: SOCKETS_PER_SESSION,
            },
            "connected",
          ),
        ),
      );
    },
    round(seq, timeoutMs) {
      return new Promise((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(seq);
          const entry = done.get(seq);
          done.delete(seq);
          resolve(entry && entry.n === workers.length ? [entry.first, entry.last] : null);
        };
        const timer = setTimeout(finish, timeoutMs);
        waiters.set(seq, finish);
        if (done.get(seq)?.n === workers.length) finish();
      });
    },
    async close() {
      await Promise.all(workers.map((w) => ask(w, { type: "close" }, "closed")));
    },
    async stop() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

const provider = await startProviderServer({
  port: 0,
  host: "127.0.0.1",
  seedDemo: true,
  secrets: ["bench-ws-fanout-provider-secret-0123456789"],
  jobs: false,
});
const apps = await Promise.all(Array.from({ length: APPS }, () => startApp(provider.url)));
const app = apps[0]!;
/** Over all app processes: resident memory and CPU time. */
const appsRss = () => apps.reduce((n, a) => n + rssBytes(a.child.pid!), 0);
const appsCpuMs = () => apps.reduce((n, a) => n + cpuMs(a.child.pid!), 0);
const results: Record<string, unknown> = {};
let seq = 0;
try {
  // As many sessions as the largest count needs (a browser tab per client, a few per trader).
  const cookies: string[] = [];
  const sessions = WORKERS * Math.ceil(Math.max(...COUNTS) / WORKERS / SOCKETS_PER_SESSION);
  for (let i = 0; i < sessions; i++) cookies.push(await appSession(app.url, "demo", "demo1234"));
  const threads = clientThreads(
    apps.map((a) => a.url.replace(/^http/, "ws") + WS_STOCK_UPDATES),
    cookies,
  );
  const absoluteNow = () => performance.timeOrigin + performance.now();
  try {
    // Warm the relay (upstream connection, code paths) with a few clients and messages.
    await threads.connect(WORKERS);
    for (let i = 0; i < 5; i++) {
      const n = ++seq;
      await provider.provider.context.bus.publish(STOCK_UPDATES_CHANNEL, priceMessage(n));
      await threads.round(n, ROUND_TIMEOUT_MS);
    }
    await threads.close();
    await sleep(500);

    for (const count of COUNTS) {
      const before = appsRss();
      const connectStarted = performance.now();
      await threads.connect(count);
      const connectMs = performance.now() - connectStarted;
      await sleep(1_000);
      const after = appsRss();

      const latencies: number[] = [];
      const firsts: number[] = [];
      let incomplete = 0;
      const cpuBefore = appsCpuMs();
      for (let round = 0; round < ROUNDS; round++) {
        const n = ++seq;
        const started = absoluteNow();
        await provider.provider.context.bus.publish(STOCK_UPDATES_CHANNEL, priceMessage(n));
        const times = await threads.round(n, ROUND_TIMEOUT_MS);
        if (!times) incomplete++;
        else {
          firsts.push(times[0] - started);
          latencies.push(times[1] - started);
        }
        await sleep(20);
      }
      const appCpuMsPerRound = (appsCpuMs() - cpuBefore) / ROUNDS;
      const perConnection = (after - before) / count;
      results[String(count)] = {
        clients: count,
        appProcesses: APPS,
        clientThreads: WORKERS,
        rounds: ROUNDS,
        incompleteRounds: incomplete,
        lastClientMs: {
          median: r1(median(latencies)),
          p99: r1(percentile(latencies, 0.99)),
          max: r1(Math.max(...latencies)),
        },
        firstClientMs: { median: r1(median(firsts)), p99: r1(percentile(firsts, 0.99)) },
        appCpuMsPerRound: r1(appCpuMsPerRound),
        connectAllMs: Math.round(connectMs),
        appRssMb: { before: r1(before / 2 ** 20), after: r1(after / 2 ** 20) },
        bytesPerConnection: Math.round(perConnection),
      };
      console.log(
        `${count} clients: last client median ${r1(median(latencies))} ms, p99 ${r1(percentile(latencies, 0.99))} ms ` +
          `(first ${r1(median(firsts))} ms; app CPU ${r1(appCpuMsPerRound)} ms a round); ` +
          `${r1(perConnection / 1024)} KB per connection ` +
          `(app RSS ${r1(before / 2 ** 20)} → ${r1(after / 2 ** 20)} MB)`,
      );
      await threads.close();
      await sleep(1_000);
    }
  } finally {
    await threads.stop();
  }
} finally {
  await Promise.all(apps.map((a) => a.stop()));
  await provider.close();
}

const at = results[String(GOALS.atClients)] as
  { lastClientMs: { p99: number }; bytesPerConnection: number; incompleteRounds: number } | undefined;
report({
  bench: "ws-fanout",
  // Other work on the machine skews the tail; the 1-minute load average says how much there was.
  loadAverage: loadAverage(),
  goals: GOALS,
  met: at
    ? at.incompleteRounds === 0 && at.lastClientMs.p99 < GOALS.p99Ms && at.bytesPerConnection < GOALS.bytesPerConnection
    : null,
  results,
});
process.exit(0);

function priceMessage(n: number) {
  return {
    type: "stock_price_update",
    data: { ticker: "AAPL", current_price: (10_000 + n) / 100, updated_at: new Date().toISOString() },
  };
}
