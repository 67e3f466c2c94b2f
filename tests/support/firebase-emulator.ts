import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The Firebase Auth emulator (firebase-tools, a devDependency) on free loopback ports, for
 * tests of Google sign-in. It runs offline: no Java, no download, no Google account. The
 * emulator accepts fake Google credentials and issues unsigned ID tokens, which firebase-admin
 * accepts when FIREBASE_AUTH_EMULATOR_HOST names it.
 */
export interface FirebaseEmulator {
  /** `127.0.0.1:port`, the value of FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  projectId: string;
  /** Any key works against the emulator. */
  apiKey: string;
  /** Signs a Google identity in through the emulator and returns its Firebase ID token. */
  googleIdToken(claims: { email: string; name?: string; sub?: string; email_verified?: boolean }): Promise<string>;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/**
 * Starts the emulator. With `thisProcess`, firebase-admin in this test process is pointed at it
 * (it reads FIREBASE_AUTH_EMULATOR_HOST itself) until stop(); a provider started as a child
 * process gets the host in its env instead.
 */
export async function startFirebaseEmulator({
  projectId = "demo-putseller",
  thisProcess = false,
} = {}): Promise<FirebaseEmulator> {
  // A `demo-` project id tells firebase-tools that no real project exists, so it never goes online for it.
  if (!projectId.startsWith("demo-")) throw new Error("Use a demo- project id for the emulator");
  const [auth, hub, logging] = await freePorts(3);
  const dir = mkdtempSync(path.join(tmpdir(), "putseller-firebase-"));
  writeFileSync(
    path.join(dir, "firebase.json"),
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port: auth },
        hub: { host: "127.0.0.1", port: hub },
        logging: { host: "127.0.0.1", port: logging },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const cli = path.join(path.dirname(require.resolve("firebase-tools/package.json")), "lib/bin/firebase.js");
  const env: NodeJS.ProcessEnv = { ...process.env, NO_UPDATE_NOTIFIER: "1", CI: "true" };
  delete env.FIREBASE_AUTH_EMULATOR_HOST;
  const child = spawn(process.execPath, [cli, "emulators:start", "--only", "auth", "--project", projectId], {
    cwd: dir,
    env,
    detached: true, // its own process group, so stop() ends everything it started
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const killOnExit = () => killGroup(child, "SIGKILL");
  process.once("exit", killOnExit);

  const host = `127.0.0.1:${auth}`;
  const stop = async () => {
    if (thisProcess) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    process.off("exit", killOnExit);
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(`http://${host}/`, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }

  if (thisProcess) process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
  const apiKey = "fake-api-key";
  return {
    host,
    projectId,
    apiKey,
    async googleIdToken(claims) {
      const idpToken = JSON.stringify({
        sub: claims.sub ?? `google-${Math.random().toString().slice(2)}`,
        email_verified: true,
        ...claims,
      });
      const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=${apiKey}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          postBody: `id_token=${encodeURIComponent(idpToken)}&providerId=google.com`,
          requestUri: "http://localhost",
          returnSecureToken: true,
        }),
      });
      const body = (await res.json()) as { idToken?: string; error?: unknown };
      if (!res.ok || !body.idToken) throw new Error(`Emulator sign-in failed: ${JSON.stringify(body)}`);
      return body.idToken;
    },
    stop,
  };
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The Firebase Auth emulator stopped:\n${output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      const body = (await res.json()) as { authEmulator?: { ready?: boolean } };
      if (body.authEmulator?.ready) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The Firebase Auth emulator did not start within 90 s:\n${output()}`);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  killGroup(child, "SIGTERM");
  const timer = setTimeout(() => killGroup(child, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Ports free right now on 127.0.0.1 (the OS picks them; they are released before use). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer();
          server.once("error", reject);
          server.listen(0, "127.0.0.1", () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}
