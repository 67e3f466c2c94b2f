import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";

/**
 * The README's first command, as a newcomer runs it on a fresh clone: `npm ci && npm start`
 * must open the product with the README's demo accounts. `npm ci` already ran (this suite runs
 * from the installed tree); `npm start` runs as written, with only a port and data folder of its own.
 */
const root = path.resolve(import.meta.dirname, "../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

let child: ChildProcess;
let dataDir: string;
let appUrl: string;
const output: string[] = [];

beforeAll(async () => {
  const [port, providerPort] = [await freePort(), await freePort()];
  dataDir = mkdtempSync(path.join(tmpdir(), "putseller-readme-"));
  appUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  Object.assign(env, { PORT: String(port), PROVIDER_PORT: String(providerPort), DATA_DIR: dataDir });
  child = spawn("npm", ["start"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout!.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr!.on("data", (d: Buffer) => output.push(d.toString()));
  const deadline = Date.now() + 240_000;
  for (;;) {
    const up = await fetch(`${appUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`npm start did not come up:\n${output.join("")}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}, 300_000);

afterAll(async () => {
  if (child?.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    process.kill(-child.pid!, "SIGTERM"); // npm and the server it started
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it("the README's first command is npm ci && npm start and promises the demo accounts", () => {
  expect(readme).toMatch(/^npm ci && npm start\b.*demo data/m);
  expect(readme).toMatch(/\| `demo` +\| `demo1234` +\|/);
});

it("after npm start, demo / demo1234 signs in and opens the watchlist with its stocks", async () => {
  const login = await fetch(`${appUrl}/login`, {
    method: "POST",
    body: new URLSearchParams({ intent: "login", username: "demo", password: "demo1234" }),
    headers: { origin: appUrl },
    redirect: "manual",
  });
  expect(login.status).toBe(302);
  const session = login.headers.getSetCookie().find((c) => c.startsWith("__session="));
  expect(session).toBeDefined();

  const watchlist = await fetch(`${appUrl}/user-stocks`, {
    headers: { cookie: session!.split(";")[0]! },
    redirect: "manual",
  });
  expect(watchlist.status).toBe(200);
  const html = await watchlist.text();
  for (const ticker of ["AAPL", "MSFT", "GOOGL", "JPM"]) expect(html).toContain(ticker);
});
