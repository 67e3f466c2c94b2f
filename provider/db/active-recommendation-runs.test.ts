import { Kysely, PGliteDialect, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import type { Database } from "./schema.ts";
import { migrationProvider } from "./migrations.ts";

describe("migration 0100: the active set as one row per stock (ADR 0040)", () => {
  it("points each stock at the run its active rows belonged to; retired rows stay readable", async () => {
    // Dates as YYYY-MM-DD strings, as the app opens its store (client.ts).
    const pglite = await PGlite.create({ parsers: { 1082: (v: string) => v } });
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      const names = Object.keys(await migrationProvider.getMigrations()).sort();
      const before = names[names.indexOf("0100-active-recommendation-runs") - 1]!;
      expect((await migrator.migrateTo(before)).error).toBeUndefined();

      await sql`INSERT INTO stocks (ticker, name, current_price) VALUES ('OLD', 'Old Co', 100), ('NONE', 'None Co', 50)`.execute(
        db,
      );
      // OLD: a retired run and the active one after it; NONE: a run whose rows were all retired.
      await sql`INSERT INTO recommendation_runs (stock_id) SELECT id FROM stocks WHERE ticker = 'OLD'`.execute(db);
      await sql`INSERT INTO recommendation_runs (stock_id) SELECT id FROM stocks WHERE ticker = 'OLD'`.execute(db);
      await sql`INSERT INTO recommendation_runs (stock_id) SELECT id FROM stocks WHERE ticker = 'NONE'`.execute(db);
      const runs = await sql<{
        id: number;
        stock_id: number;
      }>`SELECT id, stock_id FROM recommendation_runs ORDER BY id`.execute(db);
      const [retired, current, none] = runs.rows;
      for (const [run, active] of [
        [retired!, 0],
        [current!, 1],
        [none!, 0],
      ] as const) {
        await sql`INSERT INTO trade_recommendations (run_id, stock_id, option_identifier, put_or_call, expiration_date,
          strike_price, current_stock_price, current_option_price, option_weekly_low_price, option_weekly_high_price,
          calculated_monthly_roi, implied_volatility, historical_volatility, delta, theta, vega, active)
          VALUES (${run.id}, ${run.stock_id}, ${`R${run.id}`}, 'put', '2026-12-18', 95, 100, 1.05, 1, 1.2, 0.011, 0.3,
            0.28, -0.25, -0.02, 0.1, ${active})`.execute(db);
      }

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const pointers = await db.selectFrom("active_recommendation_runs").selectAll().execute();
      expect(pointers).toEqual([{ stock_id: current!.stock_id, run_id: current!.id }]);
      const rows = await db
        .selectFrom("trade_recommendations")
        .select(["run_id", "option_identifier"])
        .orderBy("id")
        .execute();
      expect(rows).toEqual([
        { run_id: retired!.id, option_identifier: `R${retired!.id}` },
        { run_id: current!.id, option_identifier: `R${current!.id}` },
        { run_id: none!.id, option_identifier: `R${none!.id}` },
      ]);
    } finally {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    }
  }, 180_000); // a fresh store and every migration: slow on a loaded machine
});
