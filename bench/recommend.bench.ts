/**
 * Recommendation generation for 100 tickers with full simulated chains (goal: under 1 s), and the
 * cost per option priced (an implied-volatility solve and the greeks, plus filtering and scoring).
 * The simulated market knows the 32 demo tickers; 68 synthetic ones with spread-out prices and
 * volatilities make up the 100.
 *
 *   npm run bench -- recommend      or      npx node bench/recommend.bench.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- recommend
 *     also measures storing into a PostgreSQL server (in a scratch database, dropped after).
 *
 * Stages, each timed as wall clock and as this process's CPU time (steadier on a shared machine):
 * - generate: what the engine needs from the market (chain, 25 daily bars, earnings date, five
 *   daily closes of every recommended option) and the engine itself — the recommendations, unsaved;
 * - engine: analyzeChain alone (the per-option cost is this over the options priced);
 * - end to end: generateMany as the scheduled job runs it (GENERATION_CONCURRENCY tickers at a
 *   time): the above plus reading the levels and IV history, storing each set (retiring the
 *   previous one) and publishing its updates.
 * - per-reader selection (ADR 0022): after the end-to-end rounds on PGlite, 1,000 traders with 20
 *   watchlist rows each (their own levels) and a third with saved filters of their own; one reader's
 *   /insights data is what the provider computes for it: their filters, the top line with their
 *   counts, and one stock's list (goal: under 50 ms), for 50 readers in turn.
 * Cold = the first round (chains built, code not yet optimised); warm = median of the next rounds.
 * The stores run as the app runs them: opening PGlite sets V8's --liftoff-only for the process (ADR
 * 0039), so every figure after the first open is with it; the output names the flags.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "#provider/db/client.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { createSimulatedMarket, type SimulatedTicker } from "#provider/market/simulated.ts";
import { analyzeChain, NO_LEVELS } from "#provider/recommend/engine.ts";
import { generateMany, GENERATION_CONCURRENCY } from "#provider/recommend/generate.ts";
import { createEventBus } from "#provider/bus/bus.ts";
import { TRADE_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import { activeRecommendations, topLine } from "#provider/recommend/store.ts";
import { readerFilters } from "#provider/recommend/filters.ts";
import type { Db } from "#provider/db/client.ts";
import { r1, report, summary, timed, type Timing } from "./report.ts";

const TICKERS = 100;
const WARM_ROUNDS = 5;
const GOAL_MS = 1000;
const TRADERS = 1000;
const ROWS_PER_TRADER = 20;
const READERS = 50;
const READER_GOAL_MS = 50;
// Wednesday 2026-11-18, noon in New York: the market is open, so every chain is full.
const NOW = new Date("2026-11-18T17:00:00Z");

function universe(): SimulatedTicker[] {
  const list: SimulatedTicker[] = DEMO_TICKERS.map((t) => ({ ...t }));
  for (let i = 0; list.length < TICKERS; i++) {
    const u = (i * 0.618034) % 1; // spread evenly, deterministically
    list.push({
      ticker: `SYN${String(i + 1).padStart(2, "0")}`,
      name: `Synthetic ${i + 1}`,
      price: Math.round(8 * Math.exp(u * Math.log(900 / 8)) * 100) / 100,
      volatility: 0.15 + ((i * 0.381966) % 1) * 0.55,
    });
  }
  return list;
}

async function endToEnd(database: DatabaseHandle, tickers: SimulatedTicker[], databaseUrl?: string) {
  // On a server the updates go out by NOTIFY and come back to this process's listener.
  const bus = createEventBus({ db: database.db, kind: database.kind, databaseUrl });
  let published = 0;
  await bus.subscribe(TRADE_UPDATES_CHANNEL, () => void published++);
  await database.db
    .insertInto("stocks")
    .values(tickers.map((t) => ({ ticker: t.ticker, name: t.name, current_price: t.price })))
    .execute();
  const context = { db: database.db, market: createSimulatedMarket({ seed: 1, tickers, now: () => NOW }), bus };
  const rounds: Timing[] = [];
  let stored = 0;
  for (let round = 0; round <= WARM_ROUNDS; round++) {
    stored = 0;
    rounds.push(
      await timed(async () => {
        // As the scheduled job runs it: a few tickers at a time.
        const outcomes = await generateMany(
          context,
          tickers.map((t) => t.ticker),
          { trigger: "bench" },
        );
        for (const o of outcomes) {
          if (o.error) throw o.error;
          stored += o.result!.recommendations.length;
        }
      }),
    );
  }
  await bus.close();
  return { ...summary(rounds), stored_per_round: stored, updates_published: published };
}

/** 1,000 traders with their own levels and (some) filters; one reader's /insights data at a time. */
async function perReader(db: Db, tickers: SimulatedTicker[]) {
  const stocks = await db.selectFrom("stocks").select(["id", "current_price"]).orderBy("id").execute();
  const users = await db
    .insertInto("users")
    .values(
      Array.from({ length: TRADERS }, (_, i) => ({
        username: `reader${i}`,
        email: `reader${i}@example.test`,
        password_hash: null,
        first_name: "R",
        last_name: `${i}`,
        firebase_uid: null,
        tokens_valid_after: null,
      })),
    )
    .returning("id")
    .execute();
  const spotOf = new Map(tickers.map((t, i) => [stocks[i]?.id ?? -1, t.price]));
  const rows = users.flatMap((u, i) =>
    Array.from({ length: ROWS_PER_TRADER }, (_, k) => {
      const stock = stocks[(i * 7 + k * 13) % stocks.length]!;
      const spot = spotOf.get(stock.id) ?? stock.current_price;
      const f = 0.85 + ((i * 31 + k * 17) % 13) / 100; // conservative at 85–97 % of the price
      return {
        user_id: u.id,
        stock_id: stock.id,
        sort_order: k,
        generate_recommendation: k < 3,
        base_iv: spot * (f + 0.1),
        conservative_iv: spot * f,
        buy_level_one: spot * (f - 0.01),
        buy_level_two: spot * (f - 0.04),
        buy_level_three: spot * (f - 0.07),
        buy_level_four: spot * (f - 0.1),
      };
    }),
  );
  for (let i = 0; i < rows.length; i += 2000)
    await db
      .insertInto("user_stocks")
      .values(rows.slice(i, i + 2000))
      .execute();
  await db
    .insertInto("trader_filters")
    .values(
      users
        .filter((_, i) => i % 3 === 0)
        .map((u, i) => ({
          user_id: u.id,
          at_or_below_conservative: i % 2 === 0,
          delta_min: 0.05,
          delta_max: 0.4,
          dte_min: 5,
          dte_max: 75,
          min_bid: 0.1,
          min_open_interest: 50,
          max_spread: 0.15,
          skip_earnings: i % 4 !== 0,
          commission: 0.5,
        })),
    )
    .execute();
  const times: Timing[] = [];
  let shown = 0;
  let counted = 0;
  for (let r = 0; r < READERS; r++) {
    const reader = users[(r * 37) % users.length]!.id;
    const stockId = stocks[(r * 11) % stocks.length]!.id;
    times.push(
      await timed(async () => {
        const filters = await readerFilters(db, reader, undefined);
        const [top, list] = await Promise.all([
          topLine(db, reader, filters),
          activeRecommendations(db, stockId, reader, filters),
        ]);
        shown += list.length;
        counted += top.length;
      }),
    );
  }
  const pool = await db
    .selectFrom("active_recommendation_runs as a")
    .innerJoin("trade_recommendations as t", "t.run_id", "a.run_id")
    .select(({ fn }) => fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return {
    traders: TRADERS,
    watchlist_rows: rows.length,
    pool_rows_active: Number(pool.n),
    readers_measured: READERS,
    ...summary(times),
    p95_wall_ms: r1([...times.map((t) => t.wall)].sort((a, b) => a - b)[Math.floor(READERS * 0.95)]!),
    options_shown_per_reader: r1(shown / READERS),
    top_line_entries_per_reader: r1(counted / READERS),
  };
}

async function main() {
  const tickers = universe();
  const market = createSimulatedMarket({ seed: 1, tickers, now: () => NOW });

  const generate: Timing[] = [];
  const engine: Timing[] = [];
  let priced = 0;
  let inChains = 0;
  let recommended = 0;
  for (let round = 0; round <= WARM_ROUNDS; round++) {
    const engineRound: Timing = { wall: 0, cpu: 0 };
    priced = inChains = recommended = 0;
    generate.push(
      await timed(async () => {
        for (const { ticker } of tickers) {
          const [chain, history, earningsDate] = await Promise.all([
            market.optionChain(ticker),
            market.dailyHistory(ticker, 25),
            market.nextEarningsDate(ticker),
          ]);
          const spot = chain.spot;
          const levels = {
            ...NO_LEVELS,
            conservative_iv: spot * 0.9,
            buy_level_one: spot * 0.95,
            buy_level_two: spot * 0.9,
          };
          let analysis!: ReturnType<typeof analyzeChain>;
          const t = await timed(async () => {
            analysis = analyzeChain({
              chain,
              closes: history.map((b) => b.close),
              levels,
              earningsDate,
              ivHistory: [],
            });
          });
          engineRound.wall += t.wall;
          engineRound.cpu += t.cpu;
          await Promise.all(analysis.selected.map((c) => market.optionHistory(c.symbol, 5)));
          priced += analysis.optionsPriced;
          inChains += chain.expirations.reduce((n, e) => n + e.options.length, 0);
          recommended += analysis.selected.length;
        }
      }),
    );
    engine.push(engineRound);
  }

  const pglite = await openDatabase({});
  const inMemory = await endToEnd(pglite, tickers);
  const readers = await perReader(pglite.db, tickers);
  await pglite.close();

  let postgres: Awaited<ReturnType<typeof endToEnd>> | undefined;
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) {
    const name = `bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      const server = await openDatabase({ databaseUrl: url.toString() });
      postgres = await endToEnd(server, tickers, url.toString());
      await server.close();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }

  const generated = summary(generate);
  const engineTimes = summary(engine);
  const perOption = (ms: number) => Math.round(((ms * 1000) / priced) * 100) / 100;
  const result = {
    tickers: tickers.length,
    options_in_chains: inChains,
    options_priced_per_round: priced,
    recommendations_per_round: recommended,
    generate_ms: generated,
    engine_ms: engineTimes,
    engine_us_per_option_priced: {
      cold: perOption(engineTimes.cold.cpu),
      warm: perOption(engineTimes.warm.cpu),
    },
    end_to_end_pglite_memory_ms: inMemory,
    end_to_end_postgres_ms: postgres ?? null,
    end_to_end_concurrency: GENERATION_CONCURRENCY,
    goal_ms: GOAL_MS,
    generate_meets_goal: generated.warm.wall < GOAL_MS,
    end_to_end_pglite_meets_goal: inMemory.warm.wall < GOAL_MS,
    end_to_end_postgres_meets_goal: postgres ? postgres.warm.wall < GOAL_MS : null,
    per_reader_pglite_memory_ms: readers,
    per_reader_goal_ms: READER_GOAL_MS,
    per_reader_meets_goal: readers.warm.wall < READER_GOAL_MS,
    load_average: (await import("node:os")).loadavg().map(r1),
    node: process.version,
    node_flags: [...process.execArgv, ...(process.env.NODE_OPTIONS ? [process.env.NODE_OPTIONS] : [])],
    v8_flags_set_by_the_app: ["--liftoff-only (provider/db/client.ts, on opening PGlite; ADR 0039)"],
  };
  const line = (label: string, s: Pick<ReturnType<typeof summary>, "cold" | "warm">) =>
    `${label.padEnd(26)} cold ${s.cold.wall} ms (cpu ${s.cold.cpu})   warm ${s.warm.wall} ms (cpu ${s.warm.cpu})`;
  console.log(
    [
      `${tickers.length} tickers, ${inChains} options in the chains, ${priced} priced, ${recommended} recommended`,
      line("generate (no store)", generated),
      `${line("engine alone", engineTimes)}   ${result.engine_us_per_option_priced.warm} µs CPU per option priced`,
      line("end to end, PGlite memory", inMemory),
      postgres ? line("end to end, PostgreSQL", postgres) : "end to end, PostgreSQL     (set BENCH_DATABASE_URL)",
      `goal < ${GOAL_MS} ms for ${tickers.length} tickers, warm wall clock: generate ${result.generate_meets_goal ? "met" : "NOT met"}, ` +
        `end to end PGlite ${result.end_to_end_pglite_meets_goal ? "met" : "NOT met"}` +
        (postgres ? `, end to end PostgreSQL ${result.end_to_end_postgres_meets_goal ? "met" : "NOT met"}` : ""),
      `${line(`one reader of ${TRADERS} traders`, { cold: readers.cold, warm: readers.warm })}   p95 ${readers.p95_wall_ms} ms, ` +
        `${readers.pool_rows_active} active pool rows, ${readers.watchlist_rows} watchlist rows; goal < ${READER_GOAL_MS} ms ${result.per_reader_meets_goal ? "met" : "NOT met"}`,
      `load average ${result.load_average.join(" ")} on this machine while it ran; node flags: ${result.node_flags.join(" ") || "none"}, ` +
        `and --liftoff-only from opening PGlite (ADR 0039)`,
    ].join("\n"),
  );
  report(result);
}

await main();
