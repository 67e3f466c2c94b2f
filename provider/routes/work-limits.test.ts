import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { createProvider } from "#provider/app.ts";
import { testPostgresDatabase, testProvider, type TestProvider } from "#provider/testing/provider.ts";

/**
 * Issue 19 item 6: each trader's generations and AI texts are limited per minute (README
 * "Security and limits"), counted in the database so the limit holds across processes and
 * restarts; a refusal is 429 with the wait in seconds, in `detail` and in Retry-After.
 */
// Wednesday 2026-11-18, noon in New York: the market is open and the chains are full.
const NOW = new Date("2026-11-18T17:00:00Z");
const market = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => NOW });
const WAIT = /^Too many (recommendation generations|AI texts)\. Please wait (\d+) seconds? and try again\.$/;

/** The wait a refusal states, checked against its Retry-After: both within the minute. */
function waitOf(res: { body: { detail: string }; headers: Headers }): number {
  const match = WAIT.exec(res.body.detail);
  expect(match, res.body.detail).not.toBeNull();
  const seconds = Number(match![2]);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  expect(res.headers.get("retry-after")).toBe(String(seconds));
  return seconds;
}

describe("per-trader limits on generations and AI texts", () => {
  let provider: TestProvider;
  let demo: string;
  let admin: string;
  beforeAll(async () => {
    provider = await testProvider({ market, workLimits: { generationsPerMinute: 2, aiTextsPerMinute: 3 } });
    demo = await provider.login("demo", "demo1234");
    admin = await provider.login("admin", "admin1234");
  });
  afterAll(() => provider.close());

  const generate = (token: string, ticker: string) =>
    provider.call(calls.generateRecommendations, { token, params: { ticker } });

  it("refuses a trader's third generation in a minute with 429 and the wait, and generates nothing", async () => {
    expect((await generate(demo, "AAPL")).status).toBe(200);
    expect((await generate(demo, "MSFT")).status).toBe(200);
    const runs = async () =>
      Number(
        (
          await provider.context.db
            .selectFrom("recommendation_runs")
            .select(({ fn }) => fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await runs();
    const refused = await generate(demo, "GOOGL");
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Too many recommendation generations\./);
    waitOf(refused);
    expect(await runs()).toBe(before);
    // Another trader (an admin too is limited, but on their own count) still generates.
    expect((await generate(admin, "GOOGL")).status).toBe(200);
  });

  it("counts stock analyses and recommendation summaries together, per trader", async () => {
    const analysis = () => provider.call(calls.stockAnalysis, { token: demo, body: { ticker: "AAPL" } });
    for (let i = 0; i < 3; i++) {
      const res = await analysis();
      expect(res.status).toBe(200);
      expect(String(res.body).length).toBeGreaterThan(0);
    }
    const refused = await analysis();
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Too many AI texts\./);
    waitOf(refused);
    const [shown] = (await provider.call(calls.tradeRecommendations, { token: admin, params: { symbol: "GOOGL" } }))
      .body as { option_identifier: string }[];
    expect(shown).toBeDefined();
    const summary = (token: string) =>
      provider.call(calls.summarizeRecommendation, {
        token,
        body: {
          option_identifier: shown!.option_identifier,
          strike_price: 100,
          expiration_date: "2026-12-18",
          current_stock_price: 110,
          current_option_price: 1.2,
        },
      });
    expect((await summary(demo)).status).toBe(429);
    expect((await summary(admin)).status).toBe(200);
  });
});

describe("the limit is kept in the database", () => {
  const options = {
    market,
    seedDemo: true,
    jobs: false,
    secrets: ["test-secret-test-secret-test-secret!"],
    workLimits: { aiTextsPerMinute: 1 },
  };
  type Started = Awaited<ReturnType<typeof createProvider>>;
  const ask = (provider: Started, token: string) =>
    provider.fetch(
      new Request("http://provider.test/api/gen-ai-stock-analysis", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ ticker: "MSFT" }),
      }),
    );
  const signIn = async (provider: Started) => {
    const login = await provider.fetch(
      new Request(new URL(calls.login.path, "http://provider.test"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "username=demo&password=demo1234",
      }),
    );
    return ((await login.json()) as { access_token: string }).access_token;
  };
  /** One text allowed by `first`, the next refused by `second`. */
  async function refusedBySecond(first: Started, second: () => Promise<Started>) {
    const token = await signIn(first);
    const ok = await ask(first, token);
    expect(ok.status).toBe(200);
    await ok.text();
    const other = await second();
    const refused = await ask(other, token);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(WAIT);
    return other;
  }

  it.runIf(process.env.TEST_DATABASE !== "postgres")(
    "still refuses after the provider restarts on the same data folder",
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), "putseller-work-limits-"));
      try {
        const first = await createProvider({ ...options, dataDir });
        const second = await refusedBySecond(first, async () => {
          await first.close();
          return createProvider({ ...options, dataDir });
        });
        await second.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    180_000,
  );

  it.runIf(process.env.TEST_DATABASE === "postgres")(
    "refuses from a second provider process on the same PostgreSQL database",
    async () => {
      const database = await testPostgresDatabase();
      const started: Started[] = [];
      try {
        started.push(await createProvider({ ...options, databaseUrl: database.url }));
        started.push(
          await refusedBySecond(started[0]!, () => createProvider({ ...options, databaseUrl: database.url })),
        );
      } finally {
        for (const provider of started) await provider.close();
        await database.drop();
      }
    },
    180_000,
  );
});
