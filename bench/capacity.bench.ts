/**
 * Capacity (issue 45, docs/capacity.md): the real app (production server.ts, BUILD_DIR) and
 * provider processes (bench/support/capacity-provider.ts) on a PostgreSQL database of their own
 * (BENCH_DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/postgres), with
 * BENCH_TRADERS traders (each a 15-stock watchlist, 3 flagged, the demo's journal) over
 * BENCH_TICKERS tickers. It measures, all as CPU time from /proc (what a shared machine can compare):
 *
 *  1. Scheduled work: one price round over every followed ticker (vendor round trip
 *     BENCH_VENDOR_MS) and one generation round over the flagged ones, with one provider process
 *     and then two sharing it (ADR 0085): tickers a minute, CPU per ticker (provider and
 *     PostgreSQL backends), rows written, WAL bytes, NOTIFY bytes per price tick.
 *  2. Each request kind alone (watchlist, recommendations, journal, a stock's page, an edit, a
 *     sign-in): CPU per request in the app, the provider and PostgreSQL.
 *  3. Tiers of app × provider processes (1×1, 2×2, 3×2): BENCH_SOCKETS live sockets (memory per
 *     socket) and BENCH_ACTIVE simulated traders looping over the mix for BENCH_TIER_SECONDS
 *     while every price partition is made due each 15 s (a round over all tickers): CPU per
 *     request and per active trader-minute (MIX_PER_MINUTE requests), rows written and read per
 *     minute (pg_stat_database), memory per process, p50/p99 per kind.
 *  4. ADR 0086's side by side: /insights with the top-line counts remembered or not.
 *  5. ADR 0102's side by side: /insights as a page of 25 cards and with every card (`?shown=`
 *     past the active runs, as the screen was before), through one app and provider, in
 *     alternating blocks. BENCH_CAPACITY_ONLY=insights-page runs only this one (after a generation
 *     round to make the runs): BENCH_FLAGGED sets how many.
 *
 *   npm run build && npm run bench -- capacity     (or npx node bench/capacity.bench.ts)
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { WebSocket } from "ws";
import { WS_STOCK_UPDATES } from "#contract/ws.ts";
import { SESSIONS_CHANNEL, STOCK_UPDATES_CHANNEL, TRADE_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import { report } from "./report.ts";
import { benchTickers } from "./support/capacity-tickers.ts";
import { appSession, freePort, sleep, startScript, type StartedScript } from "./support/processes.ts";
import { cpuMs, loadAverage, rssBytes } from "./support/proc.ts";

const env = process.env;
const SERVER_URL = env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const TICKERS = Number(env.BENCH_TICKERS ?? 300);
const TRADERS = Number(env.BENCH_TRADERS ?? 200);
const ACTIVE = Number(env.BENCH_ACTIVE ?? 12);
const SOCKETS = Number(env.BENCH_SOCKETS ?? 1000);
const TIER_SECONDS = Number(env.BENCH_TIER_SECONDS ?? 30);
const VENDOR_MS = Number(env.BENCH_VENDOR_MS ?? 100);
const KIND_REQUESTS = Number(env.BENCH_KIND_REQUESTS ?? 40);
const WATCHLIST_SIZE = 15;
const FLAGGED_PER_TRADER = 3;
/** Tickers some trader flags for recommendations (the first ones), so generation has a bounded set. */
const FLAGGED_TICKERS = Math.min(TICKERS, Number(env.BENCH_FLAGGED ?? 150));
/** Only the block of ADR 0102 (section 5), for a larger number of active runs in a few minutes. */
const ONLY_INSIGHTS_PAGE = env.BENCH_CAPACITY_ONLY === "insights-page";
/** /insights views per block in the side-by-side of ADR 0086, and blocks of each. */
const INSIGHTS_VIEWS = Number(env.BENCH_INSIGHTS_VIEWS ?? 30);
const TIERS = [
  { apps: 1, providers: 1 },
  { apps: 2, providers: 2 },
  { apps: 3, providers: 2 },
];

/**
 * An active trader's minute (docs/capacity.md "the mix"): requests a minute by kind. Page views
 * every ~15 s, an edit every 5 min, a sign-in a day spread over an 8-hour session.
 */
const MIX_PER_MINUTE = { watchlist: 1.5, insights: 1, journal: 0.75, stock: 0.5, edit: 0.2, signin: 1 / 480 };
type Kind = keyof typeof MIX_PER_MINUTE;
const KINDS = Object.keys(MIX_PER_MINUTE) as Kind[];
const MIX_TOTAL = KINDS.reduce((s, k) => s + MIX_PER_MINUTE[k], 0);

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const mb = (bytes: number) => r1(bytes / 2 ** 20);
const percentile = (values: number[], p: number) =>
  values.length ? [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * p) - 1)]! : 0;

// --- database -------------------------------------------------------------------------------
const dbName = `bench_capacity_${randomBytes(4).toString("hex")}`;
const server = new pg.Client({ connectionString: SERVER_URL });
await server.connect();
await server.query(`CREATE DATABASE ${dbName}`);
const dbUrl = new URL(SERVER_URL);
dbUrl.pathname = `/${dbName}`;
const databaseUrl = dbUrl.toString();
const admin = new pg.Client({ connectionString: databaseUrl });

const started: StartedScript[] = [];
async function cleanup() {
  for (const s of started.splice(0).reverse()) await s.stop().catch(() => {});
  await admin.end().catch(() => {});
  await server.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await server.end().catch(() => {});
}

interface Proc {
  pid: number;
  url: string;
  script: StartedScript;
}

async function startProvider(extra: Record<string, string> = {}): Promise<Proc> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const script = await startScript(
    "bench/support/capacity-provider.ts",
    {
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      PROVIDER_PORT: String(port),
      BENCH_TICKERS: String(TICKERS),
      BENCH_VENDOR_MS: String(VENDOR_MS),
      ...extra,
    },
    `${url}/healthz`,
    120_000,
  );
  started.push(script);
  return { pid: script.child.pid!, url, script };
}

async function startApp(providerUrl: string): Promise<Proc> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const script = await startScript(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PROVIDER_URL: providerUrl,
      DATA_DIR: mkdtempSync(join(tmpdir(), "putseller-bench-capacity-")),
      SESSION_SECRET: "bench-capacity-session-secret-0123456789abcdef",
      COOKIE_SECURE: "false",
      BUILD_DIR: env.BUILD_DIR ?? "build",
    },
    `${url}/healthz`,
  );
  started.push(script);
  return { pid: script.child.pid!, url, script };
}

async function stopProc(proc: Proc) {
  await proc.script.stop();
  started.splice(started.indexOf(proc.script), 1);
}

/** CPU of this database's PostgreSQL backends, by pid (server-side work the bench caused). */
async function backendCpu(): Promise<Map<number, number>> {
  const { rows } = await server.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [dbName]);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      out.set(pid, cpuMs(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
function backendDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

interface DbStats {
  written: number;
  read: number;
  commits: number;
  wal: bigint;
}
async function dbStats(): Promise<DbStats> {
  // Statistics are sent by backends at most every 500 ms (PostgreSQL 15): wait for them.
  await sleep(800);
  await admin.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await admin.query<{
    written: string;
    read: string;
    commits: string;
    wal: string;
  }>(
    `SELECT tup_inserted + tup_updated + tup_deleted AS written, tup_returned + tup_fetched AS read,
            xact_commit AS commits, pg_current_wal_lsn() - '0/0'::pg_lsn AS wal
     FROM pg_stat_database WHERE datname = current_database()`,
  );
  const r = rows[0]!;
  return {
    written: Number(r.written),
    read: Number(r.read),
    commits: Number(r.commits),
    wal: BigInt(r.wal.split(".")[0]!),
  };
}

/** CPU of a set of processes and of the database's backends over `work`. */
async function measured<T>(pids: { apps: number[]; providers: number[] }, work: () => Promise<T>) {
  const appsBefore = pids.apps.map(cpuMs);
  const providersBefore = pids.providers.map(cpuMs);
  const pgBefore = await backendCpu();
  const statsBefore = await dbStats();
  const t0 = performance.now();
  const value = await work();
  const wallMs = performance.now() - t0;
  const appsMs = pids.apps.map(cpuMs).reduce((s, v, i) => s + v - appsBefore[i]!, 0);
  const providersMs = pids.providers.map(cpuMs).reduce((s, v, i) => s + v - providersBefore[i]!, 0);
  const pgMs = backendDelta(pgBefore, await backendCpu());
  const statsAfter = await dbStats();
  return {
    value,
    wallMs,
    appsMs,
    providersMs,
    pgMs,
    written: statsAfter.written - statsBefore.written,
    read: statsAfter.read - statsBefore.read,
    commits: statsAfter.commits - statsBefore.commits,
    walBytes: Number(statsAfter.wal - statsBefore.wal),
  };
}

// --- NOTIFY payloads -------------------------------------------------------------------------
const listener = new pg.Client({ connectionString: databaseUrl });
const notifyBytes = new Map<string, number>();
const countNotify = (message: pg.Notification) =>
  notifyBytes.set(message.channel, (notifyBytes.get(message.channel) ?? 0) + Buffer.byteLength(message.payload ?? ""));

async function setFlag(key: string, on: boolean) {
  await admin.query("UPDATE backend_config SET value = $1 WHERE key = $2", [on ? "1" : "0", key]);
}

async function partitionRuns(job: string): Promise<{ total: number; done: number }> {
  const { rows } = await admin.query<{ total: string; done: string }>(
    "SELECT count(*) AS total, count(*) FILTER (WHERE runs >= 1) AS done FROM job_partitions WHERE job = $1",
    [job],
  );
  return { total: Number(rows[0]!.total), done: Number(rows[0]!.done) };
}

async function until(done: () => Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** One price round over every followed ticker from fresh partitions, with the given providers. */
async function priceRound(providers: Proc[]) {
  await setFlag("auto_refresh_enabled", false);
  await admin.query("DELETE FROM job_partitions WHERE job = 'prices'");
  notifyBytes.clear();
  const { rows } = await admin.query<{ n: string }>(
    `SELECT count(*) AS n FROM stocks s WHERE EXISTS (SELECT 1 FROM user_stocks u WHERE u.stock_id = s.id AND u.active = 1)
       OR EXISTS (SELECT 1 FROM uip_stocks u WHERE u.stock_id = s.id AND u.active = 1)`,
  );
  const followed = Number(rows[0]!.n);
  const m = await measured({ apps: [], providers: providers.map((p) => p.pid) }, async () => {
    await setFlag("auto_refresh_enabled", true);
    await until(
      async () => {
        const r = await partitionRuns("prices");
        return r.total === followed && r.done === followed;
      },
      300_000,
      "a price round",
    );
  });
  await setFlag("auto_refresh_enabled", false);
  await sleep(300);
  const notify = notifyBytes.get(STOCK_UPDATES_CHANNEL) ?? 0;
  return {
    providers: providers.length,
    tickers: followed,
    seconds: r2(m.wallMs / 1000),
    tickers_per_minute: Math.round((followed / m.wallMs) * 60_000),
    provider_cpu_ms_per_ticker: r2(m.providersMs / followed),
    postgres_cpu_ms_per_ticker: r2(m.pgMs / followed),
    rows_written_per_ticker: r2(m.written / followed),
    wal_bytes_per_ticker_server_wide: Math.round(m.walBytes / followed),
    notify_bytes_per_price_tick: Math.round(notify / followed),
  };
}

/** One generation round over the flagged tickers, from no stored runs. */
async function generationRound(providers: Proc[]) {
  await setFlag("auto_trade_recommendation_generation_enabled", false);
  await admin.query("DELETE FROM job_partitions WHERE job = 'recommendations'");
  await admin.query("TRUNCATE recommendation_runs CASCADE");
  const { rows } = await admin.query<{ n: string }>(
    `SELECT count(DISTINCT stock_id) AS n FROM user_stocks WHERE active = 1 AND generate_recommendation`,
  );
  const flagged = Number(rows[0]!.n);
  const runs = async () =>
    Number(
      (await admin.query<{ n: string }>("SELECT count(DISTINCT stock_id) AS n FROM recommendation_runs")).rows[0]!.n,
    );
  const m = await measured({ apps: [], providers: providers.map((p) => p.pid) }, async () => {
    await setFlag("auto_trade_recommendation_generation_enabled", true);
    await until(
      async () => (await runs()) >= flagged && (await partitionRuns("recommendations")).done >= flagged,
      600_000,
      "a generation round",
    );
  });
  await setFlag("auto_trade_recommendation_generation_enabled", false);
  return {
    providers: providers.length,
    tickers: flagged,
    seconds: r2(m.wallMs / 1000),
    tickers_per_minute: Math.round((flagged / m.wallMs) * 60_000),
    provider_cpu_ms_per_ticker: r1(m.providersMs / flagged),
    postgres_cpu_ms_per_ticker: r1(m.pgMs / flagged),
    rows_written_per_ticker: Math.round(m.written / flagged),
    wal_bytes_per_ticker_server_wide: Math.round(m.walBytes / flagged),
    notify_bytes_per_ticker: Math.round((notifyBytes.get(TRADE_UPDATES_CHANNEL) ?? 0) / flagged),
  };
}

// --- traders ----------------------------------------------------------------------------------
async function fillTraders() {
  const tickers = benchTickers(TICKERS);
  await admin.query(
    `INSERT INTO stocks (ticker, name) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (ticker) DO NOTHING`,
    [tickers.map((t) => t.ticker), tickers.map((t) => t.name)],
  );
  await admin.query(
    `INSERT INTO users (username, email, password_hash, first_name, last_name)
     SELECT 'trader' || g, 'trader' || g || '@bench.test', password_hash, first_name, last_name
     FROM users, generate_series(1, $1::int) g WHERE username = 'demo'`,
    [TRADERS],
  );
  await admin.query(
    `INSERT INTO user_roles (user_id, role_id)
     SELECT u.id, r.role_id FROM users u, user_roles r, users d
     WHERE d.username = 'demo' AND r.user_id = d.id AND u.username LIKE 'trader%'`,
  );
  // Trader g watches 15 tickers spread over all of them; its first 3 are among the flagged ones.
  await admin.query(
    `WITH t AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM stocks WHERE ticker = ANY($1::text[])),
          u AS (SELECT id, row_number() OVER (ORDER BY id) AS g FROM users WHERE username LIKE 'trader%')
     INSERT INTO user_stocks (user_id, stock_id, sort_order, generate_recommendation)
     SELECT DISTINCT ON (u.id, t.id) u.id, t.id, k, k < $4
     FROM u CROSS JOIN generate_series(0, $3::int - 1) k
     JOIN t ON t.i = CASE WHEN k < $4 THEN (u.g * 7 + k * 13) % $5 ELSE (u.g * 11 + k * 17) % $2 END
     ON CONFLICT DO NOTHING`,
    [tickers.map((t) => t.ticker), TICKERS, WATCHLIST_SIZE, FLAGGED_PER_TRADER, FLAGGED_TICKERS],
  );
  // A journal of 12 trades each: six puts sold over recent weeks, four bought back, a stock round trip.
  await admin.query(
    `INSERT INTO trades (user_id, kind, ticker, option_type, strike, expiry, quantity, price, fees, traded_at)
     SELECT us.user_id, k.kind, s.ticker, k.opt, round((100 - w) * 1.0)::float8, (now() + (w * 7 + 14) * interval '1 day')::date,
            1, 2.5 + w / 10.0, 0.65, now() - (w * 7 + 30) * interval '1 day'
     FROM user_stocks us JOIN stocks s ON s.id = us.stock_id,
          (VALUES ('sell_to_open', 'put'), ('buy_to_close', 'put')) k(kind, opt), generate_series(0, 4) w
     WHERE us.sort_order < 1 AND (k.kind = 'sell_to_open' OR w < 4)`,
  );
  await admin.query(
    `INSERT INTO trades (user_id, kind, ticker, quantity, price, fees, traded_at)
     SELECT us.user_id, k, s.ticker, 100, 95, 0, now() - interval '20 days'
     FROM user_stocks us JOIN stocks s ON s.id = us.stock_id, unnest(ARRAY['stock_buy', 'stock_sell']) k
     WHERE us.sort_order = 1`,
  );
  await admin.query("ANALYZE");
}

// --- requests ----------------------------------------------------------------------------------
interface Trader {
  username: string;
  cookie: string;
  app: string;
  rowId: number;
  ticker: string;
}

async function trader(app: string, n: number): Promise<Trader> {
  const username = `trader${n}`;
  const cookie = await appSession(app, username, "demo1234");
  const { rows } = await admin.query<{ id: number; ticker: string }>(
    `SELECT us.id, s.ticker FROM user_stocks us JOIN stocks s ON s.id = us.stock_id JOIN users u ON u.id = us.user_id
     WHERE u.username = $1 AND NOT us.generate_recommendation ORDER BY us.id LIMIT 1`,
    [username],
  );
  return { username, cookie, app, rowId: rows[0]!.id, ticker: rows[0]!.ticker };
}

async function request(kind: Kind, t: Trader): Promise<number> {
  const t0 = performance.now();
  let response: Response;
  const get = (path: string) => fetch(`${t.app}${path}`, { headers: { cookie: t.cookie }, redirect: "manual" });
  switch (kind) {
    case "watchlist":
      response = await get("/user-stocks");
      break;
    case "insights":
      response = await get("/insights");
      break;
    case "journal":
      response = await get("/portfolio");
      break;
    case "stock":
      response = await get(`/user-stock/${t.ticker}`);
      break;
    case "edit":
      response = await fetch(`${t.app}/user-stocks`, {
        method: "POST",
        headers: { cookie: t.cookie, origin: t.app, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "toggle", id: String(t.rowId), value: "false" }),
        redirect: "manual",
      });
      break;
    case "signin":
      await appSession(t.app, t.username, "demo1234");
      return performance.now() - t0;
  }
  await response.arrayBuffer();
  if (response.status >= 400) throw new Error(`${kind}: ${response.status}`);
  return performance.now() - t0;
}

function pickKind(): Kind {
  let x = Math.random() * MIX_TOTAL;
  for (const k of KINDS) {
    x -= MIX_PER_MINUTE[k];
    if (x <= 0) return k;
  }
  return "watchlist";
}

// --- run ----------------------------------------------------------------------------------------
const result: Record<string, unknown> = {
  conditions: {
    tickers: TICKERS,
    traders: TRADERS,
    watchlist_size: WATCHLIST_SIZE,
    flagged_tickers: FLAGGED_TICKERS,
    vendor_round_trip_ms: VENDOR_MS,
    active_traders_looping: ACTIVE,
    sockets: SOCKETS,
    tier_seconds: TIER_SECONDS,
    mix_per_trader_minute: MIX_PER_MINUTE,
    load_average_at_start: loadAverage(),
  },
};
try {
  await admin.connect();
  const first = await startProvider();
  await listener.connect();
  listener.on("notification", countNotify);
  for (const channel of [STOCK_UPDATES_CHANNEL, TRADE_UPDATES_CHANNEL, SESSIONS_CHANNEL])
    await listener.query(`LISTEN ${channel}`);
  console.log(`database ${dbName}; filling ${TRADERS} traders over ${TICKERS} tickers`);
  await fillTraders();

  // 1. Scheduled work, one process then two.
  if (ONLY_INSIGHTS_PAGE) {
    console.log(`generation round over ${FLAGGED_TICKERS} flagged tickers (the active runs of section 5)`);
    result.seeding = await generationRound([first]);
    console.log(JSON.stringify(result.seeding));
  }
  if (!ONLY_INSIGHTS_PAGE) {
    console.log("price and generation rounds, one provider process");
    const prices1 = await priceRound([first]);
    const generation1 = await generationRound([first]);
    const second = await startProvider();
    console.log("price and generation rounds, two provider processes");
    const prices2 = await priceRound([first, second]);
    const generation2 = await generationRound([first, second]);
    result.jobs = {
      prices: [prices1, prices2],
      generation: [generation1, generation2],
      prices_two_over_one: r2(prices2.tickers_per_minute / prices1.tickers_per_minute),
      generation_two_over_one: r2(generation2.tickers_per_minute / generation1.tickers_per_minute),
    };
    console.log(JSON.stringify(result.jobs, null, 1));
    await stopProc(second);
  }

  // 2. and 3. Tiers.
  const providers: Proc[] = [first];
  const tiers: unknown[] = [];
  let perKind: Record<string, unknown> | null = null;
  for (const tier of ONLY_INSIGHTS_PAGE ? [] : TIERS) {
    while (providers.length < tier.providers) providers.push(await startProvider());
    const apps: Proc[] = [];
    for (let i = 0; i < tier.apps; i++) apps.push(await startApp(providers[i % providers.length]!.url));
    const pids = { apps: apps.map((a) => a.pid), providers: providers.map((p) => p.pid) };
    console.log(`tier ${tier.apps} app × ${tier.providers} provider`);
    const traders: Trader[] = [];
    for (let i = 0; i < ACTIVE; i++) traders.push(await trader(apps[i % apps.length]!.url, i + 1));

    if (!perKind) {
      // Each kind alone, KIND_REQUESTS requests, four at a time, after a warm-up round of every kind.
      for (const kind of KINDS) for (const t of traders.slice(0, 4)) await request(kind, t);
      perKind = {};
      for (const kind of KINDS) {
        const count = kind === "signin" ? Math.min(KIND_REQUESTS, 20) : KIND_REQUESTS;
        const latencies: number[] = [];
        const m = await measured(pids, async () => {
          let next = 0;
          await Promise.all(
            Array.from({ length: 4 }, async () => {
              while (next < count) latencies.push(await request(kind, traders[next++ % traders.length]!));
            }),
          );
        });
        perKind[kind] = {
          app_cpu_ms: r1(m.appsMs / count),
          provider_cpu_ms: r1(m.providersMs / count),
          postgres_cpu_ms: r1(m.pgMs / count),
          rows_read: Math.round(m.read / count),
          rows_written: r1(m.written / count),
          p50_ms: Math.round(percentile(latencies, 0.5)),
        };
      }
      result.per_request_kind = perKind;
      console.log(JSON.stringify(perKind, null, 1));
    }

    // Live sockets, spread over the apps, 20 a session (the relay's limit per session).
    const steadyRss = async (pid: number) => {
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        samples.push(rssBytes(pid));
        await sleep(200);
      }
      return samples.sort((a, b) => a - b)[2]!;
    };
    const rssBefore = await Promise.all(apps.map((a) => steadyRss(a.pid)));
    const sockets: WebSocket[] = [];
    const socketCookies: string[] = [];
    for (let i = 0; i < Math.ceil(SOCKETS / 20); i++)
      socketCookies.push(await appSession(apps[i % apps.length]!.url, `trader${ACTIVE + i + 1}`, "demo1234"));
    for (let i = 0; i < SOCKETS; i++) {
      const session = Math.floor(i / 20);
      const app = apps[session % apps.length]!;
      const ws = new WebSocket(app.url.replace("http", "ws") + WS_STOCK_UPDATES, {
        headers: { cookie: socketCookies[session]! },
        perMessageDeflate: false,
      });
      sockets.push(ws);
      await new Promise((resolve, reject) => {
        ws.once("open", resolve);
        ws.once("error", reject);
      });
    }
    await sleep(1000);
    const rssAfter = await Promise.all(apps.map((a) => steadyRss(a.pid)));
    const socketBytes = apps.reduce((s, _a, i) => s + rssAfter[i]! - rssBefore[i]!, 0) / SOCKETS;

    // The mix, with a price round over every ticker each 15 s.
    await setFlag("auto_refresh_enabled", true);
    const latencies = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
    let errors = 0;
    const stopAt = Date.now() + TIER_SECONDS * 1000;
    const rounds = setInterval(() => {
      void admin.query("UPDATE job_partitions SET due_at = now() WHERE job = 'prices'").catch(() => {});
    }, 15_000);
    const m = await measured(pids, async () => {
      await Promise.all(
        traders.map(async (t) => {
          while (Date.now() < stopAt) {
            const kind = pickKind();
            try {
              latencies.get(kind)!.push(await request(kind, t));
            } catch {
              errors++;
            }
          }
        }),
      );
    });
    clearInterval(rounds);
    await setFlag("auto_refresh_enabled", false);
    const requests = [...latencies.values()].reduce((s, l) => s + l.length, 0);
    const traderMinutes = requests / MIX_TOTAL;
    const minutes = m.wallMs / 60_000;
    const all = [...latencies.values()].flat();
    tiers.push({
      apps: tier.apps,
      providers: tier.providers,
      requests,
      errors,
      requests_per_second: r1(requests / (m.wallMs / 1000)),
      trader_minutes_served: r1(traderMinutes),
      active_traders_served_at_this_rate: Math.round(traderMinutes / minutes),
      cpu_ms_per_request: {
        app: r1(m.appsMs / requests),
        provider: r1(m.providersMs / requests),
        postgres: r1(m.pgMs / requests),
      },
      cpu_s_per_active_trader_minute: r2((m.appsMs + m.providersMs + m.pgMs) / 1000 / traderMinutes),
      rows_written_per_minute: Math.round(m.written / minutes),
      rows_read_per_minute: Math.round(m.read / minutes),
      commits_per_minute: Math.round(m.commits / minutes),
      wal_bytes_per_minute_server_wide: Math.round(m.walBytes / minutes),
      memory_mb: { apps: apps.map((a) => mb(rssBytes(a.pid))), providers: providers.map((p) => mb(rssBytes(p.pid))) },
      memory_kb_per_socket: Math.round(socketBytes / 1024),
      latency_ms: Object.fromEntries(
        KINDS.map((k) => [
          k,
          { p50: Math.round(percentile(latencies.get(k)!, 0.5)), p99: Math.round(percentile(latencies.get(k)!, 0.99)) },
        ]),
      ),
      all_p50_ms: Math.round(percentile(all, 0.5)),
      all_p99_ms: Math.round(percentile(all, 0.99)),
    });
    console.log(JSON.stringify(tiers.at(-1)));
    for (const ws of sockets) ws.terminate();
    for (const app of apps) await stopProc(app);
  }
  result.tiers = tiers;
  for (const p of providers.splice(0)) await stopProc(p);

  // 4. ADR 0086 side by side: /insights through an app on a provider that counts every view afresh
  // (before) and through one that remembers the counts per run (after), in alternating blocks.
  if (!ONLY_INSIGHTS_PAGE) {
    const before = await startProvider({ BENCH_COUNT_CACHE_ENTRIES: "0" });
    const after = await startProvider();
    const paths = { before: await startApp(before.url), after: await startApp(after.url) };
    const procs = { before: [paths.before, before], after: [paths.after, after] };
    const views: Record<"before" | "after", Trader[]> = { before: [], after: [] };
    for (let i = 0; i < 6; i++) {
      views.before.push(await trader(paths.before.url, i + 1));
      views.after.push(await trader(paths.after.url, i + 1));
    }
    const { rows } = await admin.query<{ n: string }>("SELECT count(*) AS n FROM active_recommendation_runs");
    const totals = {
      before: { app: 0, provider: 0, pg: 0, read: 0, views: 0, latencies: [] as number[] },
      after: { app: 0, provider: 0, pg: 0, read: 0, views: 0, latencies: [] as number[] },
    };
    // A warm-up view each (the after side fills its cache here, as any first view would).
    for (const side of ["before", "after"] as const) for (const t of views[side]) await request("insights", t);
    for (let block = 0; block < 4; block++) {
      for (const side of ["before", "after"] as const) {
        const [app, provider] = procs[side];
        const m = await measured({ apps: [app!.pid], providers: [provider!.pid] }, async () => {
          let next = 0;
          await Promise.all(
            Array.from({ length: 3 }, async () => {
              while (next < INSIGHTS_VIEWS)
                totals[side].latencies.push(await request("insights", views[side][next++ % views[side].length]!));
            }),
          );
        });
        totals[side].app += m.appsMs;
        totals[side].provider += m.providersMs;
        totals[side].pg += m.pgMs;
        totals[side].read += m.read;
        totals[side].views += INSIGHTS_VIEWS;
      }
    }
    const per = (side: "before" | "after") => ({
      app_cpu_ms: r2(totals[side].app / totals[side].views),
      provider_cpu_ms: r2(totals[side].provider / totals[side].views),
      postgres_cpu_ms: r2(totals[side].pg / totals[side].views),
      rows_read: Math.round(totals[side].read / totals[side].views),
      p50_ms: Math.round(percentile(totals[side].latencies, 0.5)),
    });
    const b = per("before");
    const a = per("after");
    result.insights_count_cache = {
      active_runs: Number(rows[0]!.n),
      views_each: totals.before.views,
      before: b,
      after: a,
      ratio_after_over_before: {
        postgres_cpu: r2(a.postgres_cpu_ms / b.postgres_cpu_ms),
        provider_cpu: r2(a.provider_cpu_ms / b.provider_cpu_ms),
        app_cpu: r2(a.app_cpu_ms / b.app_cpu_ms),
        rows_read: r2(a.rows_read / b.rows_read),
      },
    };
    console.log(JSON.stringify(result.insights_count_cache));
  }

  // 5. ADR 0102 side by side: /insights as a page of cards (after) and with every card (before,
  // `?shown=` past the active runs: the screen as it was), one app and one provider, in
  // alternating blocks after a warm-up view each (the count cache of ADR 0086 on, as deployed).
  {
    const provider = await startProvider();
    const app = await startApp(provider.url);
    const readers: Trader[] = [];
    for (let i = 0; i < 6; i++) readers.push(await trader(app.url, i + 1));
    const { rows } = await admin.query<{ n: string }>("SELECT count(*) AS n FROM active_recommendation_runs");
    const paths = { all: "/insights?shown=10000", page: "/insights" };
    const cards = { all: 0, page: 0 };
    const view = async (side: "all" | "page", t: Trader) => {
      const t0 = performance.now();
      const response = await fetch(`${t.app}${paths[side]}`, { headers: { cookie: t.cookie } });
      const html = await response.text();
      if (response.status !== 200) throw new Error(`/insights (${side}): ${response.status}`);
      cards[side] = html.split('class="ins-card"').length - 1;
      return performance.now() - t0;
    };
    const totals = {
      all: { app: 0, provider: 0, pg: 0, read: 0, views: 0, latencies: [] as number[] },
      page: { app: 0, provider: 0, pg: 0, read: 0, views: 0, latencies: [] as number[] },
    };
    for (const side of ["all", "page"] as const) for (const t of readers) await view(side, t);
    const loadBefore = loadAverage();
    for (let block = 0; block < 4; block++) {
      for (const side of ["all", "page"] as const) {
        const m = await measured({ apps: [app.pid], providers: [provider.pid] }, async () => {
          let next = 0;
          await Promise.all(
            Array.from({ length: 3 }, async () => {
              while (next < INSIGHTS_VIEWS)
                totals[side].latencies.push(await view(side, readers[next++ % readers.length]!));
            }),
          );
        });
        totals[side].app += m.appsMs;
        totals[side].provider += m.providersMs;
        totals[side].pg += m.pgMs;
        totals[side].read += m.read;
        totals[side].views += INSIGHTS_VIEWS;
      }
    }
    const per = (side: "all" | "page") => ({
      cards: cards[side],
      app_cpu_ms: r2(totals[side].app / totals[side].views),
      provider_cpu_ms: r2(totals[side].provider / totals[side].views),
      postgres_cpu_ms: r2(totals[side].pg / totals[side].views),
      rows_read: Math.round(totals[side].read / totals[side].views),
      p50_ms: Math.round(percentile(totals[side].latencies, 0.5)),
    });
    const before = per("all");
    const after = per("page");
    const total = (x: typeof before) => x.app_cpu_ms + x.provider_cpu_ms + x.postgres_cpu_ms;
    result.insights_page = {
      active_runs: Number(rows[0]!.n),
      views_each: totals.all.views,
      load_average: { before: loadBefore, after: loadAverage() },
      every_card: before,
      a_page: after,
      ratio_page_over_every_card: {
        app_cpu: r2(after.app_cpu_ms / before.app_cpu_ms),
        provider_cpu: r2(after.provider_cpu_ms / before.provider_cpu_ms),
        postgres_cpu: r2(after.postgres_cpu_ms / before.postgres_cpu_ms),
        total_cpu: r2(total(after) / total(before)),
      },
    };
    console.log(JSON.stringify(result.insights_page));
    await stopProc(app);
    await stopProc(provider);
  }

  // Table sizes now, for a year's projection (docs/capacity.md).
  const { rows: sizes } = await admin.query<{ table: string; rows: string; bytes: string }>(
    `SELECT relname AS table, n_live_tup AS rows, pg_total_relation_size(relid) AS bytes
     FROM pg_stat_user_tables ORDER BY pg_total_relation_size(relid) DESC LIMIT 8`,
  );
  result.tables = sizes.map((s) => ({ table: s.table, rows: Number(s.rows), mb: mb(Number(s.bytes)) }));
  result.load_average_at_end = loadAverage();
  if (!ONLY_INSIGHTS_PAGE)
    result.headline = {
      prices_two_over_one: (result.jobs as { prices_two_over_one: number }).prices_two_over_one,
      generation_two_over_one: (result.jobs as { generation_two_over_one: number }).generation_two_over_one,
      cpu_s_per_trader_minute_1x1: (tiers[0] as { cpu_s_per_active_trader_minute: number })
        .cpu_s_per_active_trader_minute,
      insights_rows_read_after_over_before: (
        result.insights_count_cache as { ratio_after_over_before: { rows_read: number } }
      ).ratio_after_over_before.rows_read,
    };
  report(result);
} finally {
  await listener.end().catch(() => {});
  await cleanup();
}
process.exit(0);
