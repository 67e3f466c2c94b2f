/**
 * A 10,000-line broker file (issue 40 finding 2; docs/decisions/0073-imports-in-linear-time.md): an
 * Interactive Brokers activity statement of 10,000 share trades (about 920 kB, every line valid),
 * previewed, imported and imported again (every line a duplicate) into an empty journal on PGlite,
 * as the provider's calls run them. For each: wall clock and CPU time, lines per second, and the
 * event loop's worst delay (perf_hooks.monitorEventLoopDelay, 5 ms resolution) — how long any other
 * request could have waited for this process meanwhile. Goal: no delay over ~50 ms of the import's
 * own work; on a busy machine the delay includes time the process waited for a core (load average
 * in the output).
 *
 *   npm run bench -- import      or      npx node bench/import.bench.ts
 */
import { loadavg } from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { openDatabase } from "#provider/db/client.ts";
import { importTrades, previewImport } from "#provider/journal/import.ts";
import { largeIbkrFile } from "#provider/testing/broker-files.ts";
import { report } from "./report.ts";

const LINES = 10_000;
const GOAL_DELAY_MS = 50;

const csv = largeIbkrFile(LINES);
const database = await openDatabase({});
const { id: userId } = await database.db
  .insertInto("users")
  .values({
    username: "bench",
    email: "bench@example.test",
    password_hash: null,
    first_name: "B",
    last_name: "B",
    firebase_uid: null,
    tokens_valid_after: null,
  })
  .returning("id")
  .executeTakeFirstOrThrow();

const r1 = (x: number) => Math.round(x * 10) / 10;

async function measure(name: string, work: () => Promise<{ added: unknown[]; duplicates: unknown[] }>) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const result = await work();
  const wall = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  delay.disable();
  const figures = {
    wall_ms: Math.round(wall),
    cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    lines_per_second: Math.round((LINES / wall) * 1000),
    worst_event_loop_delay_ms: r1(delay.max / 1e6),
    p99_event_loop_delay_ms: r1(delay.percentile(99) / 1e6),
    added: result.added.length,
    duplicates: result.duplicates.length,
  };
  console.log(name, figures);
  return figures;
}

const loadAtStart = loadavg().map((x) => Math.round(x * 100) / 100);
const preview = await measure("preview", () => previewImport(database.db, userId, "ibkr", csv));
const imported = await measure("import", () => importTrades(database.db, userId, "ibkr", csv));
const again = await measure("import again", () => importTrades(database.db, userId, "ibkr", csv));
await database.close();

report({
  lines: LINES,
  file_bytes: Buffer.byteLength(csv),
  store: "PGlite (in memory)",
  load_average_at_start: loadAtStart,
  goal_worst_delay_ms: GOAL_DELAY_MS,
  preview,
  import: imported,
  import_again: again,
});
