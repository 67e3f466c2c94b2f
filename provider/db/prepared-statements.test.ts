import { PGlite } from "@electric-sql/pglite";
import { Kysely, PGliteDialect, sql, type ColumnType, type Generated } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withPreparedStatements } from "./prepared-statements.ts";

/**
 * Kysely on PGlite with statements prepared once (ADR 0068): the same answers as PGlite's own
 * `query`, each statement kept once by the database and planned from its cache, and errors,
 * transactions and notifications as before.
 */
interface Tables {
  notes: {
    id: Generated<number>;
    body: string;
    tags: ColumnType<string[], string[] | undefined>;
    meta: unknown;
    at: ColumnType<Date, Date | undefined>;
    done: boolean | null;
  };
}

// One PGlite for the file (a new one runs initdb, over a second); each test a fresh table and wrapper.
let pglite: PGlite;
beforeAll(async () => {
  pglite = await PGlite.create();
});
afterAll(async () => {
  await pglite.close();
});

async function open(capacity?: number) {
  await pglite.exec(
    `deallocate all; drop table if exists notes;
     create table notes (id serial primary key, body text not null unique, tags text[] not null default '{}',
       meta jsonb, at timestamptz not null default now(), done boolean)`,
  );
  const db = new Kysely<Tables>({
    dialect: new PGliteDialect({ pglite: withPreparedStatements(pglite, { capacity }) }),
  });
  return { pglite, db };
}

/** What the database itself says it keeps: pg_prepared_statements lists this session's. */
async function prepared(pglite: PGlite) {
  const { rows } = await pglite.query<{ statement: string; generic_plans: number; custom_plans: number }>(
    "select statement, generic_plans::int, custom_plans::int from pg_prepared_statements where from_sql = false",
  );
  return rows;
}

describe("statements prepared once", () => {
  it("answers as PGlite's own query does, parameters of every kind included", async () => {
    const { pglite, db } = await open();
    const at = new Date("2026-11-27T10:15:00.000Z");
    await db
      .insertInto("notes")
      .values({ body: "sell the 95 put", tags: ["wheel", "AAPL"], meta: { delta: -0.2 }, at, done: null })
      .execute();
    const select = db.selectFrom("notes").selectAll().where("body", "=", "sell the 95 put").where("at", "=", at);

    const mine = await select.execute();
    const compiled = select.compile();
    const theirs = await pglite.query(compiled.sql, [...compiled.parameters]);

    expect(mine).toEqual(theirs.rows);
    expect(mine).toEqual([
      { id: 1, body: "sell the 95 put", tags: ["wheel", "AAPL"], meta: { delta: -0.2 }, at, done: null },
    ]);
  });

  it("keeps one statement per text and runs it from the generic plan once PostgreSQL chose it", async () => {
    const { pglite, db } = await open();
    await db.insertInto("notes").values({ body: "first" }).execute();
    for (let i = 0; i < 10; i++) {
      const rows = await db.selectFrom("notes").select("body").where("id", "=", 1).execute();
      expect(rows).toEqual([{ body: "first" }]);
    }
    const select = (await prepared(pglite)).filter((s) => s.statement.startsWith('select "body"'));
    expect(select).toHaveLength(1);
    // Custom plans for the first five runs (plan_cache_mode auto), then the one generic plan.
    expect(select[0]!.custom_plans).toBe(5);
    expect(select[0]!.generic_plans).toBe(5);
  });

  it("keeps at most `capacity` statements, closing the least recently used", async () => {
    const { pglite, db } = await open(2);
    await db.selectFrom("notes").select("id").execute();
    await db.selectFrom("notes").select("body").execute();
    await db.selectFrom("notes").select("id").execute(); // used again: now the most recent
    await db.selectFrom("notes").select("tags").execute(); // evicts "body"
    await db.selectFrom("notes").select("meta").execute(); // closes "body", evicts "id"
    await db.selectFrom("notes").select("tags").execute(); // closes "id" before it runs

    const kept = (await prepared(pglite)).map((s) => s.statement).sort();
    expect(kept).toEqual(['select "meta" from "notes"', 'select "tags" from "notes"']);
  });

  it("reports a database error with its code, prepares nothing for a statement that fails to parse, and goes on", async () => {
    const { pglite, db } = await open();
    await db.insertInto("notes").values({ body: "once" }).execute();
    await expect(db.insertInto("notes").values({ body: "once" }).execute()).rejects.toMatchObject({ code: "23505" });
    await expect(sql`select nonsense from notes where id = ${1}`.execute(db)).rejects.toMatchObject({ code: "42703" });

    expect((await prepared(pglite)).map((s) => s.statement)).not.toContain("select nonsense from notes where id = $1");
    expect(await db.selectFrom("notes").select("body").execute()).toEqual([{ body: "once" }]);
  });

  it("rolls a failed transaction back and commits a good one, the statement prepared in the first serving the second", async () => {
    const { db } = await open();
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.insertInto("notes").values({ body: "rolled back" }).execute();
        await tx.insertInto("notes").values({ body: "rolled back" }).execute();
      }),
    ).rejects.toMatchObject({ code: "23505" });
    await db.transaction().execute(async (tx) => {
      await tx.insertInto("notes").values({ body: "committed" }).execute();
    });

    expect(await db.selectFrom("notes").select("body").execute()).toEqual([{ body: "committed" }]);
    // A prepared statement outlives the transaction it was prepared in: planned for its two runs
    // there (the second failed on the unique body) and for the committed one.
    const inserts = (await prepared(pglite)).filter((s) => s.statement.startsWith('insert into "notes"'));
    expect(inserts).toHaveLength(1);
    expect(inserts[0]!.custom_plans + inserts[0]!.generic_plans).toBe(3);
  });

  it("prepares a statement again when the table under it changed its columns", async () => {
    const { pglite, db } = await open();
    await db.insertInto("notes").values({ body: "before" }).execute();
    await sql`select * from notes where id = ${1}`.execute(db);
    await pglite.exec("alter table notes add column strike numeric");

    const { rows } = await sql<Record<string, unknown>>`select * from notes where id = ${1}`.execute(db);
    expect(rows[0]).toMatchObject({ body: "before", strike: null });
  });

  it("delivers a notification sent by a prepared statement", async () => {
    const { pglite, db } = await open();
    const heard: string[] = [];
    await pglite.listen("moves", (payload) => heard.push(payload));
    await sql`select pg_notify('moves', ${"AAPL 224.10"})`.execute(db);
    await expect.poll(() => heard).toEqual(["AAPL 224.10"]);
  });

  it("answers concurrent callers each with their own rows", async () => {
    const { db } = await open();
    await db
      .insertInto("notes")
      .values(Array.from({ length: 20 }, (_, i) => ({ body: `note ${i}` })))
      .execute();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db
          .selectFrom("notes")
          .select("body")
          .where("id", "=", i + 1)
          .execute(),
      ),
    );
    expect(answers.map((rows) => rows[0]?.body)).toEqual(Array.from({ length: 20 }, (_, i) => `note ${i}`));
  });
});
