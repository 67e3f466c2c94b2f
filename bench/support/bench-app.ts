/**
 * The app as it runs in production (server.ts with its embedded provider on a PGlite folder),
 * over a store prepared for the page benchmarks: a trader `benchtrader` whose watchlist has 50
 * rows, a UIP list of 50 rows, and active recommendations for 20 stocks, 1,000 options in all.
 * The store is filled in this process first, then the app opens it, so nothing but the app runs
 * while it is measured.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProvider } from "#provider/app.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { generateMany } from "#provider/recommend/generate.ts";
import { appSession, freePort, root, startScript } from "./processes.ts";

export { freePort, root };

export const BENCH_USER = { username: "benchtrader", password: "Bench-trader-1234" };
export const SIZES = { watchlist: 50, uip: 50, insightStocks: 20, insightOptions: 1000 };

/** A PGlite folder with the demo data and the benchmark's lists (see the file comment). */
export async function prepareStore(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "putseller-bench-"));
  const provider = await createProvider({ dataDir, seedDemo: true, seedRecommendations: false, jobs: false });
  try {
    const { db, market } = provider.context;
    const registered = await provider.fetch(
      new Request("http://bench/auth/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...BENCH_USER, email: "bench@example.test", first_name: "Bench", last_name: "Trader" }),
      }),
    );
    if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);
    const user = await db
      .selectFrom("users")
      .select("id")
      .where("username", "=", BENCH_USER.username)
      .executeTakeFirstOrThrow();

    // Stocks: the demo tickers, then synthetic ones up to 50 (list pages read prices from the store).
    const synthetic = Array.from({ length: SIZES.watchlist - DEMO_TICKERS.length }, (_, i) => ({
      ticker: `ZB${String(i + 1).padStart(2, "0")}`,
      name: `Bench Holdings ${i + 1} Corporation Class A Common Stock`,
      current_price: 20 + i * 7.31,
      updated_at: new Date(),
    }));
    await db
      .insertInto("stocks")
      .values(synthetic)
      .onConflict((oc) => oc.column("ticker").doNothing())
      .execute();
    const stocks = await db.selectFrom("stocks").select(["id", "ticker", "current_price"]).orderBy("id").execute();
    const levels = (price: number) => ({
      base_iv: Math.round(price * 110) / 100,
      conservative_iv: Math.round(price * 95) / 100,
      buy_level_one: Math.round(price * 92) / 100,
      buy_level_two: Math.round(price * 85) / 100,
      buy_level_three: Math.round(price * 78) / 100,
      buy_level_four: Math.round(price * 70) / 100,
    });
    await db
      .insertInto("user_stocks")
      .values(
        stocks.slice(0, SIZES.watchlist).map((s, i) => ({
          user_id: user.id,
          stock_id: s.id,
          sort_order: i,
          generate_recommendation: i % 3 === 0,
          ...levels(s.current_price),
        })),
      )
      .execute();

    const inUip = new Set((await db.selectFrom("uip_stocks").select("stock_id").execute()).map((r) => r.stock_id));
    const categories = await db.selectFrom("categories").select("id").orderBy("id").execute();
    const missing = stocks.filter((s) => !inUip.has(s.id)).slice(0, SIZES.uip - inUip.size);
    if (missing.length) {
      await db
        .insertInto("uip_stocks")
        .values(
          missing.map((s, i) => ({
            stock_id: s.id,
            category_id: categories[i % categories.length]!.id,
            sort_order: inUip.size + i,
            ...levels(s.current_price),
          })),
        )
        .execute();
    }

    // Recommendations: real runs for 20 demo tickers, each set then cut or filled to 50 options.
    const tickers = DEMO_TICKERS.slice(0, SIZES.insightStocks).map((t) => t.ticker);
    await generateMany({ db, market }, tickers, { trigger: "bench" });
    const perStock = SIZES.insightOptions / SIZES.insightStocks;
    for (const ticker of tickers) {
      const stock = stocks.find((s) => s.ticker === ticker)!;
      const rows = await db
        .selectFrom("active_recommendation_runs as a")
        .innerJoin("trade_recommendations as t", "t.run_id", "a.run_id")
        .selectAll("t")
        .where("a.stock_id", "=", stock.id)
        .orderBy("t.id")
        .execute();
      if (rows.length === 0) throw new Error(`no recommendations were generated for ${ticker}`);
      if (rows.length > perStock) {
        // Pool rows are never retired one by one (ADR 0040): the fixture drops the surplus.
        await db
          .deleteFrom("trade_recommendations")
          .where(
            "id",
            "in",
            rows.slice(perStock).map((r) => r.id),
          )
          .execute();
      }
      const clones = [];
      for (let i = rows.length; i < perStock; i++) {
        const { id: _id, ...row } = rows[i % rows.length]!;
        const strike = Math.max(1, row.strike_price - (Math.floor(i / rows.length) + 1) * 0.5);
        const expiry = String(row.expiration_date).replace(/-/g, "").slice(2);
        clones.push({
          ...row,
          strike_price: strike,
          option_identifier: `${ticker}${expiry}P${String(Math.round(strike * 1000)).padStart(8, "0")}`,
          extra: JSON.stringify(row.extra),
        });
      }
      if (clones.length) await db.insertInto("trade_recommendations").values(clones).execute();
    }
    const active = await db
      .selectFrom("active_recommendation_runs as a")
      .innerJoin("trade_recommendations as t", "t.run_id", "a.run_id")
      .select(({ fn }) => fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    if (Number(active.n) !== SIZES.insightOptions) throw new Error(`expected 1000 active options, found ${active.n}`);
  } finally {
    await provider.close();
  }
  return dataDir;
}

export interface BenchApp {
  url: string;
  child: ChildProcess;
  /** The signed-in trader's cookie header (`__session=…`). */
  cookie: string;
  /** When the process was started (Date.now()). */
  startedAt: number;
  stop(): Promise<void>;
}

/** Starts `node server.ts` in production on a prepared store and signs the bench trader in. */
export async function startApp(dataDir: string, buildDir = process.env.BUILD_DIR ?? "build"): Promise<BenchApp> {
  const [port, providerPort] = [await freePort(), await freePort()];
  // localhost (not 127.0.0.1): browsers treat it as a secure context, so Secure cookies work over http.
  const url = `http://localhost:${port}`;
  const startedAt = Date.now();
  const { child, stop } = await startScript(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PROVIDER_PORT: String(providerPort),
      DATA_DIR: dataDir,
      SEED_DEMO: "true",
      SESSION_SECRET: "bench-pages-session-secret-0123456789abcdef",
      BUILD_DIR: buildDir,
    },
    `${url}/healthz`,
    120_000,
  );
  try {
    return { url, child, cookie: await appSession(url, BENCH_USER.username, BENCH_USER.password), startedAt, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
