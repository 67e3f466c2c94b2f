import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");
const node = path.join(root, "node_modules/.bin/node");

export interface Started {
  url: string;
  process: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/**
 * Starts `node <script>` with env and waits (up to `startSeconds`) until `healthPath` answers 200.
 * The process is killed when the test worker exits, however it ends, so a port is never left
 * taken for the worker that replaces it. A port already taken is an error: another run's server
 * there would answer the health check, and the tests would run against its build and data.
 */
export async function startNode(
  script: string,
  env: Record<string, string>,
  url: string,
  { healthPath = "/healthz", startSeconds = 180 }: { healthPath?: string; startSeconds?: number } = {},
): Promise<Started> {
  await ensurePortFree(Number(new URL(url).port));
  const output: string[] = [];
  const child = spawn(node, [script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => output.push(String(d)));
  child.stderr!.on("data", (d) => output.push(String(d)));
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  const deadline = Date.now() + startSeconds * 1000;
  for (;;) {
    const ok = await fetch(url + healthPath).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${script} did not start:\n${output.join("")}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    process: child,
    output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function ensurePortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === "EADDRINUSE"
            ? `Port ${port} is taken, perhaps by another test run on this machine: give this run other ports with E2E_PORT and E2E_PROVIDER_PORT (tests/e2e/support/ports.ts)`
            : `Port ${port} cannot be used: ${error.message}`,
        ),
      ),
    );
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

export const tempDir = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));
