/**
 * The capital plan's server time (issue 42, ADR 0081; goal: each under 50 ms): the Plan screen's
 * data for a trader with 50 open short puts over 30 tickers (plus shares held and closed positions
 * in the journal), and the best puts across 30 flagged stocks with a fresh set of recommendations
 * each. PGlite in memory, the simulated market; what the provider computes for GET /api/plan and
 * GET /api/plan/best-puts (provider/plan/book.ts), without HTTP.
 *
 *   npm run bench -- plan      or      npx node bench/plan.bench.ts
 *
 * Cold = the first call (sectors asked of the market and stored, code not yet optimised); warm =
 * median of the next rounds; wall clock and this process's CPU time.
 */
import { openDatabase } from "#provider/db/client.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { generateMany } from "#provider/recommend/generate.ts";
import { createEventBus } from "#provider/bus/bus.ts";
import { insertTrade } from "#provider/journal/store.ts";
import { saveCapitalSettings } from "#provider/plan/store.ts";
import { bestPutsFor, planOf } from "#provider/plan/book.ts";
import { report, summary, timed, type Timing } from "./report.ts";

const TICKERS = 30;
const OPEN_PUTS = 50;
const ROUNDS = 20;
const GOAL_MS = 50;
// Wednesday 2026-11-18, noon in New York: the market is open, so every chain is full.
const NOW = new Date("2026-11-18T17:00:00Z");

const tickers = DEMO_TICKERS.slice(0, TICKERS);
const database = await openDatabase({});
const { db } = database;
const market = createSimulatedMarket({ seed: 1, tickers, now: () => NOW });
await db
  .insertInto("stocks")
  .values(tickers.map((t) => ({ ticker: t.ticker, name: t.name, current_price: t.price })))
  .execute();
const stocks = await db.selectFrom("stocks").select(["id", "ticker", "current_price"]).orderBy("id").execute();
const user = await db
  .insertInto("users")
  .values({ username: "planner", email: "planner@example.test", password_hash: null, first_name: "P", last_name: "B" })
  .returning("id")
  .executeTakeFirstOrThrow();
await db
  .insertInto("user_stocks")
  .values(
    stocks.map((s, k) => ({
      user_id: user.id,
      stock_id: s.id,
      sort_order: k,
      generate_recommendation: true,
      base_iv: s.current_price * 1.1,
      conservative_iv: s.current_price * 0.97,
      buy_level_one: s.current_price * 0.95,
      buy_level_two: s.current_price * 0.9,
      buy_level_three: s.current_price * 0.85,
      buy_level_four: s.current_price * 0.8,
    })),
  )
  .execute();
// Capital large enough that the best puts fill the list (the worst case: ten picks to find).
await saveCapitalSettings(db, user.id, {
  capital: 5_000_000,
  reserve_share: 0.1,
  ticker_limit: 0.25,
  sector_limit: 0.4,
  only_fitting: true,
});

// The journal: 50 open puts over the 30 tickers (a second strike on 20 of them), 10 assigned lots,
// and 30 closed round trips; 150 trades to replay.
const at = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const expiries = ["2026-12-18", "2027-01-15", "2027-02-19"];
const put = (ticker: string, strike: number, expiry: string) => ({
  ticker,
  option_type: "put" as const,
  strike: Math.round(strike),
  expiry,
});
for (let i = 0; i < OPEN_PUTS; i++) {
  const s = stocks[i % TICKERS]!;
  const strike = s.current_price * (i < TICKERS ? 0.95 : 0.9);
  await insertTrade(db, user.id, {
    kind: "sell_to_open",
    ...put(s.ticker, strike, expiries[i % 3]!),
    quantity: 1 + (i % 3),
    price: 2,
    fees: 1,
    traded_at: at(10 + (i % 7)),
  } as never);
}
for (let i = 0; i < 10; i++) {
  const s = stocks[i]!;
  const opened = { ...put(s.ticker, s.current_price * 0.85, "2026-10-16"), quantity: 1, fees: 0 };
  await insertTrade(db, user.id, { kind: "sell_to_open", ...opened, price: 1.5, traded_at: at(60) } as never);
  await insertTrade(db, user.id, { kind: "assignment", ...opened, price: 0, traded_at: at(33) } as never);
}
for (let i = 0; i < 30; i++) {
  const s = stocks[i]!;
  const leg = { ...put(s.ticker, s.current_price * 0.8, "2026-11-20"), quantity: 1, fees: 1 };
  await insertTrade(db, user.id, { kind: "sell_to_open", ...leg, price: 1, traded_at: at(30) } as never);
  await insertTrade(db, user.id, { kind: "buy_to_close", ...leg, price: 0.2, traded_at: at(5) } as never);
}

// A set of recommendations for each flagged stock, as the scheduled job makes it.
const bus = createEventBus({ db, kind: database.kind });
for (const outcome of await generateMany(
  { db, market, bus },
  tickers.map((t) => t.ticker),
  { trigger: "bench" },
)) {
  if (outcome.error) throw outcome.error;
}
await bus.close();
const pool = await db
  .selectFrom("trade_recommendations")
  .select(({ fn }) => fn.countAll<number>().as("n"))
  .executeTakeFirst();

const now = NOW.getTime() + 86_400_000;
let plan: Awaited<ReturnType<typeof planOf>> | null = null;
const planRounds: Timing[] = [];
for (let round = 0; round <= ROUNDS; round++) {
  planRounds.push(
    await timed(async () => {
      plan = await planOf(db, market, user.id, -0.15, now);
    }),
  );
}
let best: Awaited<ReturnType<typeof bestPutsFor>> | null = null;
const bestRounds: Timing[] = [];
for (let round = 0; round <= ROUNDS; round++) {
  bestRounds.push(
    await timed(async () => {
      best = await bestPutsFor(db, market, user.id, now);
    }),
  );
}
await database.close();

const planSummary = summary(planRounds);
const bestSummary = summary(bestRounds);
report({
  goal_ms: GOAL_MS,
  flags: process.execArgv.join(" ") || "(none)",
  plan: {
    ...planSummary,
    open_puts: plan!.puts.length,
    tickers: plan!.exposures.length,
    scenarios: plan!.scenarios.length,
    meets_goal: planSummary.warm.wall < GOAL_MS,
  },
  best_puts: {
    ...bestSummary,
    flagged_stocks: TICKERS,
    recommendations_in_pool: Number(pool?.n ?? 0),
    picks: best!.picks.length,
    meets_goal: bestSummary.warm.wall < GOAL_MS,
  },
});
