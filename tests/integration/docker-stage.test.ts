import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import {
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * No Docker engine runs here, so this test assembles the Dockerfile's final stage by hand,
 * from the Dockerfile itself: its COPY lines, its ENV, the packages `npm ci --omit=dev` installs and
 * its CMD. A file
 * the image forgets, or a runtime package kept in devDependencies, fails this test.
 */
const root = path.resolve(import.meta.dirname, "../..");
const node = path.join(root, "node_modules/.bin/node");

interface FinalStage {
  env: Record<string, string>;
  copies: { from: string | null; src: string[]; dest: string }[];
  cmd: string[];
}

function readFinalStage(): FinalStage {
  const text = readFileSync(path.join(root, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const stages = text.split(/^FROM /m);
  const lines = stages[stages.length - 1]!.split("\n").map((l) => l.trim());
  const stage: FinalStage = { env: {}, copies: [], cmd: [] };
  for (const line of lines) {
    if (line.startsWith("ENV ")) {
      for (const [, k, v] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) stage.env[k!] = v!;
    } else if (line.startsWith("COPY ")) {
      const parts = line.slice(5).trim().split(/\s+/);
      const fromFlag = parts[0]!.startsWith("--from=") ? parts.shift()!.slice(7) : null;
      const dest = parts.pop()!;
      stage.copies.push({ from: fromFlag, src: parts, dest });
    } else if (line.startsWith("CMD ")) {
      stage.cmd = JSON.parse(line.slice(4));
    }
  }
  return stage;
}

/**
 * What the prod-deps stage's `npm ci --omit=dev` installs: every package of the lockfile not marked
 * `dev`, at the same place in node_modules as in a full install (npm lays out the whole tree, then
 * leaves the dev packages out). Hard links to this checkout's install give that tree in about a
 * second instead of a second 15 s install; a runtime package kept in devDependencies is missing all
 * the same. (A lockfile out of step with package.json fails CI's own `npm ci` before this test.)
 */
function linkProductionPackages(app: string): void {
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean }>;
  };
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where.startsWith("node_modules/") || entry.dev) continue;
    // An optional package for another platform was never installed here, nor would it be in the image.
    if (!existsSync(path.join(root, where))) continue;
    linkTree(path.join(root, where), path.join(app, where));
  }
}

/** Hard-links a package's files into `to`; a nested node_modules is the lockfile's own entries. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const item of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, item.name);
    const target = path.join(to, item.name);
    if (item.isDirectory()) {
      if (item.name !== "node_modules") linkTree(source, target);
    } else if (item.isSymbolicLink()) {
      symlinkSync(readlinkSync(source), target);
    } else {
      linkSync(source, target);
    }
  }
}

let dir: string;
let child: ChildProcess | undefined;
let baseUrl: string;
const output: string[] = [];

beforeAll(async () => {
  const stage = readFinalStage();
  dir = mkdtempSync(path.join(tmpdir(), "putseller-image-"));
  const app = path.join(dir, "app");
  mkdirSync(app);
  // The build stage: `npm run build` into /app/build.
  const buildDir = path.join(dir, "build-stage");
  execFileSync(node, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
    cwd: root,
    env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: "production" },
    stdio: "pipe",
  });
  // `npm run build` then compresses the assets once (scripts/precompress.ts).
  execFileSync(node, [path.join(root, "scripts/precompress.ts")], {
    cwd: root,
    env: { ...process.env, BUILD_DIR: buildDir },
    stdio: "pipe",
  });
  for (const copy of stage.copies) {
    if (copy.from === "prod-deps") continue; // installed below, as that stage does
    for (const src of copy.src) {
      const from = copy.from === "build" ? buildDir : path.join(root, src);
      const to =
        copy.dest.endsWith("/") || copy.src.length > 1
          ? path.join(app, copy.dest, path.basename(src))
          : path.join(app, copy.dest);
      cpSync(from, to, { recursive: true });
    }
  }
  // The prod-deps stage: production dependencies only.
  linkProductionPackages(app);

  const port = 3900 + Math.floor(Math.random() * 90);
  baseUrl = `http://127.0.0.1:${port}`;
  const [cmd, ...args] = stage.cmd;
  expect(cmd).toBe("node");
  child = spawn(node, args, {
    cwd: app,
    env: {
      PATH: process.env.PATH,
      ...stage.env,
      PORT: String(port),
      PROVIDER_PORT: String(port + 100),
      DATA_DIR: path.join(dir, "data"),
      SEED_DEMO: "true",
      COOKIE_SECURE: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => output.push(String(d)));
  child.stderr!.on("data", (d) => output.push(String(d)));
  // A first start seeds the demo and back-tests the track record: over a minute on a slow 2-core machine.
  const deadline = Date.now() + 150_000;
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`The image's CMD did not start:\n${output.join("")}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 240_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child!.once("exit", r));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the Dockerfile's final stage", () => {
  it("reports itself and the embedded provider healthy", async () => {
    const res = await fetch(`${baseUrl}/healthz`);
    expect(await res.json()).toEqual({ app: "ok", provider: "ok" });
  });

  it("serves the login page with a CSP nonce and immutable, Brotli-compressed assets", async () => {
    const res = await fetch(`${baseUrl}/login`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Welcome Back");
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`nonce="${nonce}"`);
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const assetRes = await fetch(`${baseUrl}${asset}`, { headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
    expect(assetRes.status).toBe(200);
    expect(assetRes.headers.get("cache-control")).toContain("immutable");
    // The build's Brotli copy (scripts/precompress.ts) made it into the image.
    expect(assetRes.headers.get("content-encoding")).toBe("br");
  });

  it("signs the demo user in and shows the watchlist", async () => {
    const login = await fetch(`${baseUrl}/login`, {
      method: "POST",
      body: new URLSearchParams({ username: "demo", password: "demo1234" }),
      redirect: "manual",
    });
    expect(login.status).toBe(302);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const page = await fetch(`${baseUrl}/user-stocks`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("My Watchlist");
  });

  it("stops cleanly on SIGTERM", async () => {
    child!.kill("SIGTERM");
    const code = await new Promise<number | null>((r) => child!.once("exit", (c) => r(c)));
    expect(code).toBe(0);
  });
});
