/**
 * `npm run bench [-- name…]`: builds the app once (BUILD_DIR, default `build`; BENCH_SKIP_BUILD=1
 * keeps an existing build), then runs every bench/*.bench.ts (or those whose name contains one of
 * the arguments) one after another, each in its own Node process so none warms up or tires
 * another. Helpers live in bench/report.ts, bench/js-budget.ts and bench/support/, never named
 * *.bench.ts. Each bench writes its JSON result where BENCH_RESULT says; they are kept under
 * bench/results/ (gitignored) as <bench>-<time>.json, and the run's summary, with the machine it
 * ran on, as run-<time>.json. A short table of each bench's figures ends the output.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { cpus, freemem, loadavg, totalmem } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { headline } from "./support/table.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..");
const resultsDir = join(here, "results");
mkdirSync(resultsDir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const filters = process.argv.slice(2);
const buildDir = process.env.BUILD_DIR ?? "build";

const benches = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (benches.length === 0) {
  console.error(`No bench/*.bench.ts matches ${filters.join(", ") || "(all)"}`);
  process.exit(1);
}

const machine = {
  cpus: cpus().length,
  cpu_model: cpus()[0]?.model ?? "unknown",
  memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  free_memory_gib: Math.round((freemem() / 2 ** 30) * 10) / 10,
  load_average_at_start: loadavg().map((x) => Math.round(x * 100) / 100),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
};
console.log(`Machine: ${machine.cpus} CPUs (${machine.cpu_model}), ${machine.memory_gib} GiB, Node ${machine.node}`);

if (process.env.BENCH_SKIP_BUILD !== "1") {
  console.log(`\n▶ build (react-router build into ${buildDir})`);
  // The plain build: a route over its JavaScript budget is reported by js-size, not a stop here.
  const build = spawnSync(join(root, "node_modules/.bin/react-router"), ["build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: "production" },
  });
  if (build.status !== 0) {
    console.error("The build failed; no bench was run.");
    process.exit(1);
  }
}

const summary: Record<string, unknown> = { machine, build_dir: buildDir };
let failed = false;
for (const file of benches) {
  const name = basename(file, ".bench.ts");
  const out = join(resultsDir, `${name}-${stamp}.json`);
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const run = spawnSync(process.execPath, [join(here, file)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_RESULT: out, NODE_ENV: "production", BUILD_DIR: buildDir },
  });
  if (run.status !== 0 || !existsSync(out)) {
    failed = true;
    summary[name] = { error: `exited with ${run.status ?? run.signal}` };
    continue;
  }
  summary[name] = { seconds: Math.round((Date.now() - started) / 1000), ...JSON.parse(readFileSync(out, "utf8")) };
}
const summaryFile = join(resultsDir, `run-${stamp}.json`);
writeFileSync(summaryFile, JSON.stringify(summary, null, 2));

console.log(`\n${"bench".padEnd(16)} figures`);
for (const file of benches) {
  const name = basename(file, ".bench.ts");
  const result = summary[name] as Record<string, unknown>;
  const figures = headline(result);
  console.log(`${name.padEnd(16)} ${figures.slice(0, 6).join("   ")}`);
  for (let i = 6; i < figures.length; i += 6) console.log(`${"".padEnd(16)} ${figures.slice(i, i + 6).join("   ")}`);
}
console.log(`\nSummary in ${summaryFile}`);
process.exit(failed ? 1 : 0);
