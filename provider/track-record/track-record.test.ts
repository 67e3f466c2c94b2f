import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { openDatabase, type DatabaseHandle } from "#provider/db/client.ts";
import { CLOSE_MINUTE, dayNumberOf, isoDateOf, nyClock, nyInstant } from "#provider/market/calendar.ts";
import { generateRecommendations } from "#provider/recommend/generate.ts";
import { testPostgresDatabase, testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { backtestSessions } from "./backtest.ts";
import { runTrackRecord } from "./job.ts";
import { scorePut } from "./outcome.ts";
import { copyShown, lastClosedSession, scoreDue } from "./store.ts";

/**
 * The track record against a real database and the simulated market pinned in time: recommended
 * puts are copied once, scored from the closes on their expiry day, and neither step does anything
 * twice, whether repeated or run from two connections at once.
 */
const SEED = 5;
// Monday 14 September 2026, 13:00 in New York (the session is open).
const T0 = new Date("2026-09-14T17:00:00Z");
// Ten weeks on: every put recommended at T0 (7 to 60 days) has expired.
const T1 = new Date("2026-11-23T17:00:00Z");
const marketAt = (now: Date) => createSimulatedMarket({ seed: SEED, tickers: DEMO_TICKERS, now: () => now });

let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider({ market: marketAt(T0) });
});
afterAll(() => provider.close());

const picks = () => provider.context.db.selectFrom("track_record_picks").selectAll().orderBy("id").execute();

describe("the track record of live recommendations", () => {
  let generated: Awaited<ReturnType<typeof generateRecommendations>>;

  it("copies each recommended put once a day, however often it was recommended", async () => {
    const context = { db: provider.context.db, market: marketAt(T0) };
    generated = await generateRecommendations(context, "MSFT", { trigger: "test" });
    // The same market instant gives the same set again: shown twice the same day, one pick each.
    await generateRecommendations(context, "MSFT", { trigger: "test" });
    const first = await runTrackRecord(context, { now: () => T0 });
    expect(first).toEqual({
      copied: generated.recommendations.length,
      backtested: 0,
      scored: 0,
      waiting: 0,
      calls: { scored: 0, waiting: 0 },
    });
    const rows = await picks();
    expect(rows.map((r) => r.option_symbol).sort()).toEqual(
      generated.recommendations.map((r) => r.option_identifier).sort(),
    );
    const shown = generated.recommendations[0]!;
    const row = rows.find((r) => r.option_symbol === shown.option_identifier)!;
    expect(row).toMatchObject({
      source: "live",
      simulated: true,
      ticker: "MSFT",
      expiration: shown.expiration_date,
      strike: shown.strike_price,
      premium: shown.current_option_price,
      premium_basis: "bid",
      probability_of_profit: shown.probability_of_profit,
      outcome: null,
    });
    // Shown on the real day the row was stored (New York), not the market's pinned one.
    expect(row.shown_day).toBe(isoDateOf(nyClock(new Date()).dayNumber));
    expect(row.premium).toBe(shown.bid);
    // The T-bill rate it was priced with, for "T-bills over the same days" (ADR 0097).
    expect(row.rate).toBe(shown.rate);
    expect(row.rate).toBeGreaterThan(0);
  });

  it("scores nothing before the expiry close, then every pick from its expiry day's close", async () => {
    const later = marketAt(T1);
    const result = await runTrackRecord({ db: provider.context.db, market: later }, { now: () => T1 });
    expect(result).toMatchObject({ copied: 0, scored: generated.recommendations.length, waiting: 0 });
    for (const row of await picks()) {
      const closes = await later.dailyHistory("MSFT", 60);
      const close = closes.find((b) => b.time === row.expiration)!.close;
      const expected = scorePut({ strike: row.strike, premium: row.premium, close });
      expect(row).toMatchObject({
        close_day: row.expiration,
        close_at_expiry: close,
        outcome: expected.outcome,
        pnl_per_share: expected.pnlPerShare,
      });
      expect(row.scored_at).not.toBeNull();
    }
  });

  it("changes nothing when run again", async () => {
    const before = await picks();
    const again = await runTrackRecord({ db: provider.context.db, market: marketAt(T1) }, { now: () => T1 });
    expect(again).toEqual({ copied: 0, backtested: 0, scored: 0, waiting: 0, calls: { scored: 0, waiting: 0 } });
    expect(await picks()).toEqual(before);
  });

  it("serves the scored picks to anyone, with the calibration by bucket and the figures per ticker and month", async () => {
    // One pick assigned, the earliest to expire: the latest scored (expired worthless) leave it out,
    // the latest assigned list it so it can be audited (issue 46).
    const earliest = (await picks()).sort((a, b) => (a.expiration < b.expiration ? -1 : 1))[0]!;
    await provider.context.db
      .updateTable("track_record_picks")
      .set({ outcome: "assigned" })
      .where("id", "=", earliest.id)
      .execute();
    const rows = await picks();
    const res = await provider.call(calls.trackRecord);
    expect(res.status).toBe(200);
    const record = calls.trackRecord.response.parse(res.body);
    expect(record.simulated).toBe(true);
    expect(record.totals.count).toBe(rows.length);
    expect(record.totals.expired_worthless).toBe(rows.filter((r) => r.outcome === "expired_worthless").length);
    expect(record.calibration).toHaveLength(10);
    expect(record.calibration.reduce((n, b) => n + b.count, 0)).toBe(rows.length);
    expect(record.by_ticker.map((g) => g.ticker)).toEqual(["MSFT"]);
    expect(record.by_month.reduce((n, g) => n + g.count, 0)).toBe(rows.length);
    const pnl = rows.reduce((sum, r) => sum + r.pnl_per_share! * 100, 0);
    expect(record.totals.pnl_per_contract).toBeCloseTo(pnl, 6);
    const assigned = rows.filter((r) => r.outcome === "assigned");
    expect(assigned.length).toBeGreaterThan(0);
    expect(record.recent_assigned!.map((p) => p.option_symbol)).toEqual(
      expect.arrayContaining(assigned.slice(0, 20).map((r) => r.option_symbol)),
    );
    expect(record.recent_assigned!.every((p) => p.outcome === "assigned")).toBe(true);
    // The latest expired worthless are listed on their own, not cut from the latest of all.
    const expired = rows.filter((r) => r.outcome === "expired_worthless");
    expect(record.recent_expired!.map((p) => p.option_symbol).sort()).toEqual(
      expired
        .slice(0, 20)
        .map((r) => r.option_symbol)
        .sort(),
    );
    // The headline on collateral-days (ADR 0097): every scored pick, the P&L over strike × days × 365.
    const dayCount = (r: (typeof rows)[number]) =>
      Math.max(1, Math.round((Date.parse(r.expiration) - Date.parse(r.shown_day)) / 86_400_000));
    const weight = rows.reduce((sum, r) => sum + r.strike * dayCount(r), 0);
    expect(record.on_collateral.count).toBe(rows.length);
    expect(record.on_collateral.realised).toBeCloseTo(
      (rows.reduce((sum, r) => sum + r.pnl_per_share!, 0) / weight) * 365,
      9,
    );
    expect(record.on_collateral.tbills).toBeGreaterThan(0);

    const stats = calls.landingStats.response.parse((await provider.call(calls.landingStats)).body);
    expect(stats.scored).toBe(rows.length);
    expect(stats.returns).toMatchObject({ ...record.on_collateral, at_mid: 0 });
    expect(stats.expired_worthless.share).toBeCloseTo(record.totals.expired_worthless / rows.length, 12);
    expect(stats.expired_worthless.last_expiry).toBe(
      rows
        .map((r) => r.expiration)
        .sort()
        .at(-1),
    );
    expect(stats.tickers_scored).toBe(1);
    // The demo watchlists and curated list; MSFT's two runs today priced the same chain.
    expect(stats.stocks_followed).toBeGreaterThan(4);
    expect(stats.latest_session).toEqual({
      day: isoDateOf(nyClock(new Date()).dayNumber),
      puts_priced: generated.analysis.candidates.length,
    });
  });

  it("does not count a put shown only as the nearest strike above the conservative value", async () => {
    // At T0 no AAPL put passes the default view (the curated list's conservative value is below
    // every strike it would take), so the list names the nearest one instead: not a recommendation.
    const shown = await generateRecommendations({ db: provider.context.db, market: marketAt(T0) }, "AAPL", {
      trigger: "test",
    });
    expect(shown.recommendations.length).toBeGreaterThan(0);
    expect(shown.recommendations.every((r) => r.rank === 0 || r.nearest_above_conservative)).toBe(true);
    expect(await copyShown(provider.context.db, { simulated: true })).toBe(0);
  });
});

describe("the simulated back-test", () => {
  it("replays one session a week before the last close", () => {
    // The last close before Monday 14 September 13:00 is Friday 11 September's.
    expect(lastClosedSession(T0)).toBe("2026-09-11");
    expect(backtestSessions("2026-09-11", 3)).toEqual(["2026-08-21", "2026-08-28", "2026-09-04"]);
  });

  it("records the engine's picks at each past close once, at that close's bid, and scores those expired", async () => {
    const { db } = await testProvider({ market: marketAt(T0) }).then((p) => {
      cleanup.push(() => p.close());
      return p.context;
    });
    const market = marketAt(T0);
    const first = await runTrackRecord({ db, market }, { now: () => T0, backtestWeeks: 4 });
    expect(first.backtested).toBeGreaterThan(0);
    const rows = await db.selectFrom("track_record_picks").selectAll().orderBy("id").execute();
    expect(rows).toHaveLength(first.backtested);
    expect(new Set(rows.map((r) => r.shown_day))).toEqual(new Set(backtestSessions("2026-09-11", 4)));
    // The demo's tickers flagged for recommendations.
    expect(new Set(rows.map((r) => r.ticker))).toEqual(new Set(["AAPL", "GOOGL", "JPM", "MSFT"]));

    const sample = rows[0]!;
    const close = nyInstant(dayNumberOf(sample.shown_day), CLOSE_MINUTE);
    const chain = await market.withClock(() => close).optionChain(sample.ticker);
    const quoted = chain.expirations.flatMap((e) => e.options).find((o) => o.symbol === sample.option_symbol)!;
    expect(sample).toMatchObject({ source: "backtest", simulated: true, premium: quoted.bid, spot: chain.spot });

    // Picks whose expiry close is final at T0 are scored; the rest wait.
    const due = rows.filter((r) => r.expiration <= "2026-09-11").length;
    expect(due).toBeGreaterThan(0);
    expect(first.scored).toBe(due);

    const second = await runTrackRecord({ db, market }, { now: () => T0, backtestWeeks: 4 });
    expect(second).toEqual({ copied: 0, backtested: 0, scored: 0, waiting: 0, calls: { scored: 0, waiting: 0 } });
  });
});

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanup.splice(0)) await c();
});

describe("two processes at once", () => {
  let handles: DatabaseHandle[] = [];
  let drop = async () => {};
  beforeAll(async () => {
    if (process.env.TEST_DATABASE === "postgres") {
      // Two connection pools on one server database: what two provider processes share.
      const database = await testPostgresDatabase();
      drop = database.drop;
      handles = [await openDatabase({ databaseUrl: database.url }), await openDatabase({ databaseUrl: database.url })];
    } else {
      // PGlite is one process: two concurrent callers on the one database.
      const one = await openDatabase({});
      handles = [one, one];
    }
  });
  afterAll(async () => {
    for (const h of new Set(handles)) await h.close();
    await drop();
  });

  it("copies each recommendation once and scores each pick once, after the recommendations are pruned", async () => {
    const [a, b] = handles.map((h) => h.db) as [DatabaseHandle["db"], DatabaseHandle["db"]];
    const stock = await a
      .insertInto("stocks")
      .values({ ticker: "MSFT", name: "Microsoft", current_price: 400 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const generated = await generateRecommendations({ db: a, market: marketAt(T0) }, "MSFT", { trigger: "test" });
    expect(generated.stockId).toBe(stock.id);
    const n = generated.recommendations.length;

    const copies = await Promise.all([copyShown(a, { simulated: true }), copyShown(b, { simulated: true })]);
    expect(copies[0] + copies[1]).toBe(n);

    // Old runs may be pruned once copied: scoring needs only the copy.
    // (Every run here, the active ones too: their pointers go first, ADR 0040.)
    await a.deleteFrom("active_recommendation_runs").execute();
    await a.deleteFrom("trade_recommendations").execute();
    await a.deleteFrom("recommendation_runs").execute();

    const later = marketAt(T1);
    const scores = await Promise.all([scoreDue(a, later, T1), scoreDue(b, later, T1)]);
    expect(scores[0].scored + scores[1].scored).toBe(n);
    const rows = await b.selectFrom("track_record_picks").select(["outcome", "scored_at"]).execute();
    expect(rows).toHaveLength(n);
    expect(rows.every((r) => r.outcome !== null)).toBe(true);
  });
});
