import { setFlagsFromString } from "node:v8";
import { Kysely, PGliteDialect, PostgresDialect, sql } from "kysely";
import { Migrator } from "kysely/migration";
import type { Database } from "./schema.ts";
import { migrationProvider } from "./migrations.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { withPreparedStatements } from "./prepared-statements.ts";

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** A PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/test. */
  databaseUrl?: string | undefined;
  /** PGlite's folder; omitted (and no databaseUrl) means an in-memory PGlite. */
  dataDir?: string | undefined;
  /**
   * An in-memory PGlite starts from this image of a data folder (`migratedImage`) instead of
   * running initdb, which is most of its start-up: test suites start dozens of stores from one.
   */
  image?: Blob | undefined;
}

export interface DatabaseHandle {
  db: Db;
  kind: "postgres" | "pglite";
  /** Runs `listener` for each NOTIFY on `channel`; resolves to an unsubscribe function. */
  listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const INT8 = 20;
const DATE = 1082;

/**
 * Opens the store, applies every pending migration, and returns it.
 * Dates stay `YYYY-MM-DD` strings and bigint counts become numbers in both drivers.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : await openPglite(options.dataDir, options.dataDir ? undefined : options.image);
  try {
    await migrate(handle.db);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pg = await import("pg");
  const { Pool, Client, types } = pg.default;
  const parsers = {
    getTypeParser(oid: number, format?: "text" | "binary") {
      if (oid === INT8) return (v: string) => Number(v);
      if (oid === DATE) return (v: string) => v;
      return types.getTypeParser(oid, format);
    },
  };
  const pool = new Pool({ connectionString: url, max: 10, types: parsers });
  pool.on("error", (error) => console.error("[db] idle client error:", error.message));
  // pg-pool listens for errors only while a client is idle: a connection dropped during a query
  // would otherwise be an unhandled 'error' that ends the process. The query itself still fails
  // (the request answers 503) and the pool discards the client.
  pool.on("connect", (client) => {
    client.on("error", (error) => console.error("[db] connection lost:", error.message));
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: "postgres",
    async listen(channel, listener) {
      const client = new Client({ connectionString: url, types: parsers });
      client.on("error", (error) => console.error(`[db] listener on ${channel}:`, error.message));
      await client.connect();
      client.on("notification", (msg) => {
        if (msg.channel === channel) listener(msg.payload ?? "");
      });
      await client.query(`LISTEN ${quoteIdent(channel)}`);
      return async () => {
        await client.end().catch(() => {});
      };
    },
    close: () => db.destroy(),
  };
}

/**
 * Postgres settings of the embedded database (ADR 0039). initdb writes shared_buffers = 128MB,
 * sized for a server with one process per connection; PGlite is one connection on a store of tens
 * of MB whose files the OS caches anyway, and the buffer pool lives in its WebAssembly memory.
 * 16 MB (and WAL buffers, 1/32 of it) halves that memory; work_mem stays 4 MB.
 */
const PGLITE_SETTINGS = ["shared_buffers=16MB"];

async function openPglite(dataDir: string | undefined, image?: Blob): Promise<DatabaseHandle> {
  // Postgres compiled to WebAssembly: V8's baseline compiler only. Tiering its hot functions up
  // to the optimizing compiler took hundreds of MB at its peaks, kept afterwards by the allocator,
  // and slowed the first minutes on two cores (docs/benchmarks.md#memory, ADR 0039). Set before
  // PGlite compiles its module; it applies to the process (fetch's HTTP parser is WebAssembly too),
  // and /user-stocks under load served more requests a second with it, not fewer.
  setFlagsFromString("--liftoff-only");
  const { PGlite } = await import("@electric-sql/pglite");
  // One process per folder: a second one would silently diverge from the first (data-dir-lock.ts).
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  let pglite;
  try {
    pglite = await PGlite.create(dataDir, {
      parsers: { [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v },
      loadDataDir: image,
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])],
    });
  } catch (error) {
    unlock();
    throw error;
  }
  // Statements prepared and planned once (ADR 0068).
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: withPreparedStatements(pglite) }) });
  return {
    db,
    kind: "pglite",
    async listen(channel, listener) {
      return pglite.listen(channel, listener);
    },
    async close() {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
      unlock();
    },
  };
}

/** An image of a new in-memory store with every migration applied, for `DatabaseOptions.image`. */
export async function migratedImage(): Promise<Blob> {
  const { PGlite } = await import("@electric-sql/pglite");
  const pglite = await PGlite.create();
  try {
    await migrate(new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) }));
    // Uncompressed (40 MB): gzip makes it 4.5 MB but adds about 150 ms to every start from it (ADR 0047).
    return await pglite.dumpDataDir("none");
  } finally {
    await pglite.close();
  }
}

async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === "Error") console.error(`[db] migration ${result.migrationName} failed`);
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
