/**
 * The benches' child processes: a free port, a Node script started in its own process and waited
 * for, and a sign-in through the app's login form. (tests/e2e/support/processes.ts is the browser
 * tests' counterpart, with their output captured.)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface StartedScript {
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node <script>` (a path from the repository root) with only `env` (and PATH), and waits
 * until `readyUrl` answers 2xx; its stderr is the bench's. BENCH_CPU_PROFILE=<folder> has each such
 * process write a V8 CPU profile there when it exits (Node's `--cpu-prof`).
 */
export async function startScript(
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  timeoutMs = 60_000,
): Promise<StartedScript> {
  const profile = process.env.BENCH_CPU_PROFILE;
  const profiling = profile ? ["--cpu-prof", `--cpu-prof-dir=${resolve(profile)}`] : [];
  const child = spawn(process.execPath, [...profiling, join(root, script)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  const ready = () =>
    fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    );
  while (!(await ready())) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${script} did not start`);
    }
    await sleep(200);
  }
  return { child, stop };
}

/**
 * Signs in through the app's login form; the session cookie (`__session=…`) to send as the
 * signed-in browser (not the flash toast the sign-in also sets: a measured page would show it).
 */
export async function appSession(appUrl: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${appUrl}/login`, {
    method: "POST",
    body: new URLSearchParams({ intent: "login", username, password }),
    headers: { origin: appUrl },
    redirect: "manual",
  });
  const session = response.headers.getSetCookie().find((c) => c.startsWith("__session="));
  if (response.status !== 302 || !session) throw new Error(`app sign-in failed: ${response.status}`);
  return session.split(";")[0]!;
}
