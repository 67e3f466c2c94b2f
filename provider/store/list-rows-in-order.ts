import { sql, type Expression, type ShallowDehydrateObject } from "kysely";
import type { Db } from "#provider/db/client.ts";

/**
 * A list's rows in list order (sort_order, then id), read as one JSON array (ADR 0054). PGlite
 * decodes every field of an answer on its own, each a copy of its bytes and a text decoder's work:
 * a 50-row list read as one JSON text takes half as long. Dates arrive as ISO strings.
 */
export async function listRowsInOrder<O extends { id: number; sort_order: number }>(
  db: Db,
  rows: Expression<O>,
): Promise<ShallowDehydrateObject<O>[]> {
  const result = await sql<{ rows: ShallowDehydrateObject<O>[] }>`
    select coalesce(json_agg(r order by r.sort_order, r.id), '[]') as rows from ${rows} as r`.execute(db);
  return result.rows[0]!.rows;
}
