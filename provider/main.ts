import { mkdirSync } from "node:fs";
import { providerStartOptions, readProviderEnv } from "./env.ts";
import { startProviderServer } from "./server.ts";
import { DataDirInUse } from "./db/data-dir-lock.ts";

/** Runs the provider API on its own: `npm run provider`. */
let env;
try {
  env = readProviderEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
if (!env.DATABASE_URL) mkdirSync(env.DATA_DIR, { recursive: true });
let running;
try {
  running = await startProviderServer(providerStartOptions(env));
} catch (error) {
  if (!(error instanceof DataDirInUse)) throw error;
  console.error(error.message);
  process.exit(1);
}
console.log(`Provider API listening on ${running.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.log(`Provider: ${signal}, shutting down`);
    void running.close().then(() => process.exit(0));
  });
}
