/**
 * Time to the first streamed byte of an AI text through the app, against the provider's own
 * (goal: the app adds under 20 ms). Runs the production build (BUILD_DIR, default `build`: run
 * `npm run build` first) with its embedded provider, twice: with the built-in analyst, and in
 * OpenAI-compatible mode against a local fake model that answers at once (so the model's own
 * time is not measured). Each round asks the provider directly (bearer token), then the app's
 * resource route (session cookie), for the same ticker; the first byte is when the first body
 * piece arrives. Cold = the first round; warm = median and p95 of the rest.
 *
 *   npm run build && npm run bench -- ai-ttfb      or      npx node bench/ai-ttfb.bench.ts
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startFakeChatVendor } from "../tests/support/fake-chat-vendor.ts";
import { median, report } from "./report.ts";
import { appSession, freePort, startScript } from "./support/processes.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const GOAL_MS = 20;
const TICKERS = ["AAPL", "MSFT", "TSLA", "KO", "HD"];

async function startApp(
  env: Record<string, string>,
): Promise<{ appUrl: string; providerUrl: string; stop(): Promise<void> }> {
  const [port, providerPort] = [await freePort(), await freePort()];
  const appUrl = `http://127.0.0.1:${port}`;
  const { stop } = await startScript(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(port),
      PROVIDER_PORT: String(providerPort),
      DATA_DIR: mkdtempSync(join(tmpdir(), "putseller-bench-ai-")),
      SEED_DEMO: "true",
      // 80 texts for one trader in a minute or two: the per-trader limit is not what is measured.
      AI_TEXTS_PER_MINUTE: "100000",
      SESSION_SECRET: "bench-ai-ttfb-session-secret-0123456789abcdef",
      COOKIE_SECURE: "false",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      ...env,
    },
    `${appUrl}/healthz`,
  );
  return { appUrl, providerUrl: `http://127.0.0.1:${providerPort}`, stop };
}

async function providerToken(providerUrl: string): Promise<string> {
  const response = await fetch(`${providerUrl}/auth/token`, {
    method: "POST",
    body: new URLSearchParams({ username: "demo", password: "demo1234" }),
  });
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

/** Milliseconds from sending the request to the first body piece; the rest is read and dropped. */
async function firstByte(url: string, headers: Record<string, string>, ticker: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ ticker }),
  });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  const reader = response.body!.getReader();
  const first = await reader.read();
  const elapsed = performance.now() - started;
  if (first.done) throw new Error(`${url} sent nothing`);
  while (!(await reader.read()).done) {
    // drain
  }
  return elapsed;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))]!;

async function measure(mode: string, env: Record<string, string>) {
  const app = await startApp(env);
  try {
    const cookie = await appSession(app.appUrl, "demo", "demo1234");
    const token = await providerToken(app.providerUrl);
    const direct: number[] = [];
    const through: number[] = [];
    for (let i = 0; i < ROUNDS + 1; i++) {
      const ticker = TICKERS[i % TICKERS.length]!;
      direct.push(
        await firstByte(`${app.providerUrl}/api/gen-ai-stock-analysis`, { authorization: `Bearer ${token}` }, ticker),
      );
      through.push(await firstByte(`${app.appUrl}/resources/ai/stock-analysis`, { cookie }, ticker));
    }
    const warmDirect = direct.slice(1);
    const warmThrough = through.slice(1);
    const added = warmThrough.map((t, i) => t - warmDirect[i]!);
    const result = {
      mode,
      rounds: ROUNDS,
      provider: { cold: r1(direct[0]!), median: r1(median(warmDirect)), p95: r1(p95(warmDirect)) },
      app: { cold: r1(through[0]!), median: r1(median(warmThrough)), p95: r1(p95(warmThrough)) },
      addedByApp: { median: r1(median(added)), p95: r1(p95(added)) },
      goalMs: GOAL_MS,
      withinGoal: median(added) < GOAL_MS,
    };
    console.log(
      `${mode}: provider ${result.provider.median} ms, app ${result.app.median} ms → the app adds ${result.addedByApp.median} ms (p95 ${result.addedByApp.p95} ms; goal < ${GOAL_MS} ms)`,
    );
    return result;
  } finally {
    await app.stop();
  }
}

const vendor = await startFakeChatVendor();
vendor.answer = (reply) => {
  reply.role();
  reply.piece("First words of the model. ");
  reply.piece("The rest.");
  reply.done();
};
try {
  const builtIn = await measure("built-in analyst", {});
  const openai = await measure("OpenAI-compatible (local fake model)", {
    AI_BASE_URL: vendor.baseUrl,
    AI_MODEL: "bench-model",
  });
  report({ name: "ai-ttfb", at: new Date().toISOString(), results: [builtIn, openai] });
} finally {
  await vendor.close();
}
