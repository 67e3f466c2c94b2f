import { Kysely, PGliteDialect, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import type { Database } from "./schema.ts";
import { migrationProvider } from "./migrations.ts";

describe("migration 0060: recommendation fields out of extra into columns (ADR 0033)", () => {
  it("fills the columns of rows stored before it from their extra, NULL where a field was absent", async () => {
    // Dates as YYYY-MM-DD strings, as the app opens its store (client.ts).
    const pglite = await PGlite.create({ parsers: { 1082: (v: string) => v } });
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      // Every migration before 0060 (kysely applies them in name order).
      const names = Object.keys(await migrationProvider.getMigrations()).sort();
      const before = names[names.indexOf("0060-recommendation-columns") - 1]!;
      expect((await migrator.migrateTo(before)).error).toBeUndefined();

      await sql`INSERT INTO stocks (ticker, name, current_price) VALUES ('OLD', 'Old Co', 100)`.execute(db);
      await sql`INSERT INTO recommendation_runs (stock_id) SELECT id FROM stocks`.execute(db);
      // A pool row of ADR 0022 with every field, and an older pick without the fields added since.
      const full = {
        open_interest: 500,
        bid: 1.05,
        ask: 1.15,
        days_to_expiry: 30,
        annualized_roi: 0.13,
        breakeven: 93.95,
        collateral: 9500,
        cushion: 0.0605,
        probability_of_profit: 0.78,
        probability_of_profit_delta: 0.75,
        earnings_date: "2026-12-10",
        earnings_before_expiry: true,
        iv_rank: 0.4,
        buy_level: "two",
        below_conservative_iv: true,
        score: 0.0123,
        rank: 0,
        default_pick: false,
        mid: 1.1,
        intrinsic_value: 0,
        time_value: 1.05,
        spread: 0.0909,
        probability_of_assignment: 0.21,
        iv_percentile: 0.55,
        iv_history_days: 252,
        rate: 0.043,
      };
      const { mid: _m, intrinsic_value: _i, time_value: _t, spread: _s, rate: _r, ...older } = full;
      for (const [symbol, extra] of [
        ["OLD261218P00095000", full],
        ["OLD261218P00090000", { ...older, rank: 2, buy_level: null, earnings_date: null, iv_rank: null }],
      ] as const) {
        await sql`INSERT INTO trade_recommendations (run_id, stock_id, option_identifier, put_or_call, expiration_date,
          strike_price, current_stock_price, current_option_price, option_weekly_low_price, option_weekly_high_price,
          calculated_monthly_roi, implied_volatility, historical_volatility, delta, theta, vega, extra)
          SELECT r.id, r.stock_id, ${symbol}, 'put', '2026-12-18', 95, 100, 1.05, 1, 1.2, 0.011, 0.3, 0.28, -0.25, -0.02, 0.1,
            ${JSON.stringify(extra)}::jsonb FROM recommendation_runs r`.execute(db);
      }

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await db.selectFrom("trade_recommendations").selectAll().orderBy("id").execute();
      expect(rows[0]).toMatchObject({
        bid: 1.05,
        ask: 1.15,
        mid: 1.1,
        open_interest: 500,
        days_to_expiry: 30,
        annualized_roi: 0.13,
        breakeven: 93.95,
        collateral: 9500,
        cushion: 0.0605,
        probability_of_profit: 0.78,
        probability_of_profit_delta: 0.75,
        probability_of_assignment: 0.21,
        earnings_date: "2026-12-10",
        earnings_before_expiry: true,
        iv_rank: 0.4,
        iv_percentile: 0.55,
        iv_history_days: 252,
        rate: 0.043,
        intrinsic_value: 0,
        time_value: 1.05,
        spread: 0.0909,
        run_buy_level: "two",
        run_below_conservative_iv: true,
        default_score: 0.0123,
        default_rank: 0,
        extra: {},
      });
      expect(rows[1]).toMatchObject({
        bid: 1.05,
        mid: null,
        intrinsic_value: null,
        time_value: null,
        spread: null,
        rate: null,
        earnings_date: null,
        iv_rank: null,
        run_buy_level: null,
        default_rank: 2,
      });
    } finally {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    }
  }, 180_000); // a fresh store and every migration: slow on a loaded machine
});
