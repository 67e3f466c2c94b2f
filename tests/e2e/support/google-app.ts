import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePorts, startFirebaseEmulator, type FirebaseEmulator } from "../../support/firebase-emulator.ts";
import { E2E_SESSION_SECRET } from "./test.ts";

/**
 * A second instance of the built app, with Google sign-in configured against the Firebase Auth
 * emulator, on free ports with its own data folder. The worker apps (tests/e2e/support/test.ts)
 * run without Firebase, as a default install does.
 */
export interface GoogleApp {
  baseURL: string;
  emulator: FirebaseEmulator;
  stop(): Promise<void>;
}

export async function startGoogleApp(): Promise<GoogleApp> {
  const emulator = await startFirebaseEmulator();
  const [port, providerPort] = await freePorts(2);
  const dataDir = mkdtempSync(path.join(tmpdir(), "putseller-e2e-google-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    PROVIDER_PORT: String(providerPort),
    DATA_DIR: dataDir,
    SEED_DEMO: "true",
    SESSION_SECRET: E2E_SESSION_SECRET,
    BUILD_DIR: process.env.BUILD_DIR ?? "build",
    FIREBASE_API_KEY: emulator.apiKey,
    FIREBASE_AUTH_DOMAIN: `${emulator.projectId}.firebaseapp.com`,
    FIREBASE_PROJECT_ID: emulator.projectId,
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
  };
  delete env.PROVIDER_URL;
  const server = spawn(process.execPath, ["server.ts"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  server.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const baseURL = `http://localhost:${port}`;
  const stop = async () => {
    await stopProcess(server);
    await emulator.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(`${baseURL}/healthz`, server, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, emulator, stop };
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The Google test server stopped:\n${output()}`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`The Google test server did not start within 120 s:\n${output()}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // gone already
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
