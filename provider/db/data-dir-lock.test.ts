import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

/**
 * One process per embedded data folder: a second provider on the same DATA_DIR exits at once with
 * a message naming the folder and the process that has it (two PGlite processes on one folder
 * diverge silently and lose acknowledged writes). A lock left by a killed process is taken over.
 */
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

function start(dataDir: string) {
  // The embedded store, whatever the suite runs on (npm run test:postgres sets DATABASE_URL).
  const { DATABASE_URL: _postgres, ...env } = process.env;
  const child = spawn(process.execPath, [MAIN], {
    env: { ...env, DATA_DIR: dataDir, PROVIDER_PORT: "0", SEED_DEMO: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += String(d)));
  child.stderr!.on("data", (d) => (output += String(d)));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", () => output.includes("Provider API listening") && resolve());
    child.once("exit", () => reject(new Error(`exited:\n${output}`)));
  });
  listening.catch(() => {}); // awaited where it matters; a killed process is expected to exit
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, listening, exited, output: () => output };
}

describe("the embedded data folder", () => {
  it("is held by one process; a second exits naming the folder and the holder", async () => {
    const dataDir = realpathSync(mkdtempSync(path.join(tmpdir(), "putseller-lock-")));
    const first = start(dataDir);
    await first.listening;

    const second = start(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`The data folder ${dataDir} is in use by process ${first.child.pid}`);
    expect(first.child.exitCode).toBe(null);

    // Killed without a chance to release it, the lock is stale: the next process takes the folder.
    first.child.kill("SIGKILL");
    await first.exited;
    const third = start(dataDir);
    await third.listening;
  }, 120_000);
});
