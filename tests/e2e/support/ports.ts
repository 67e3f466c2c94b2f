/**
 * The ports of a browser-test run (ADR 0026). Each Playwright worker owns a block of
 * PORTS_PER_WORKER app ports counted from E2E_PORT and as many provider ports counted from
 * E2E_PROVIDER_PORT: the first of each for the worker's own app and its embedded provider
 * (tests/e2e/support/test.ts), the rest for servers a spec starts for itself (`ownPorts`).
 * With two workers a run uses E2E_PORT … E2E_PORT+9 and E2E_PROVIDER_PORT … E2E_PROVIDER_PORT+9,
 * so people on one machine can run side by side with ten ports each. A spec never picks a fixed
 * port of its own: two files running at once on two workers would take the same one.
 */
export const PORTS_PER_WORKER = 5;

const APP_BASE = Number(process.env.E2E_PORT ?? 3100);
const PROVIDER_BASE = Number(process.env.E2E_PROVIDER_PORT ?? 8100);

/**
 * Which worker this is: Playwright sets TEST_PARALLEL_INDEX (0 … workers-1) in each worker
 * process, and a worker that replaces a failed one keeps the index, so it gets the same ports.
 */
function slot(): number {
  return Number(process.env.TEST_PARALLEL_INDEX ?? 0);
}

/** This worker's app and embedded provider (started by the `workerApp` fixture). */
export function workerPorts(): { app: number; provider: number } {
  const offset = slot() * PORTS_PER_WORKER;
  return { app: APP_BASE + offset, provider: PROVIDER_BASE + offset };
}

/** This worker's app, the `baseURL` of its tests. */
export function workerAppUrl(): string {
  return `http://localhost:${workerPorts().app}`;
}

/** The provider that this worker's app embeds, for calls a test makes to it directly. */
export function embeddedProviderUrl(): string {
  return `http://127.0.0.1:${workerPorts().provider}`;
}

/**
 * The spare ports of this worker, for the servers one spec starts for itself (an app on its own
 * settings, a provider it stops and starts): `app[0…3]` and `provider[0…3]`. Files on one worker
 * run one after another, and each stops its servers in `afterAll`, so they never meet.
 */
export function ownPorts(): { app: number[]; provider: number[] } {
  const { app, provider } = workerPorts();
  const spare = (first: number) => Array.from({ length: PORTS_PER_WORKER - 1 }, (_, i) => first + 1 + i);
  return { app: spare(app), provider: spare(provider) };
}
