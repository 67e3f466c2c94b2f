import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";
import type { PGlite as KyselyPGlite, PGliteTransaction } from "kysely";

/**
 * PGlite for Kysely, with each data statement (select, insert, update, delete, with) prepared once
 * and planned once (ADR 0068). PGlite's own `query` parses and plans every call afresh, in six
 * round trips into the WebAssembly: on a watchlist's list statement, planning took more time than
 * running it. Here a statement seen before is one round trip: bind, describe, execute, sync.
 *
 * PostgreSQL keeps the plan (`plan_cache_mode` auto: custom plans for the first five runs, then
 * the generic plan unless it costs more) and plans again by itself when a table it reads changes
 * shape. Anything else (DDL, `set`, savepoints) goes through PGlite's `query` as before.
 */
export function withPreparedStatements(pglite: PGlite, { capacity = 200 } = {}): KyselyPGlite {
  /** Prepared statements by text, least recently used first (a Map keeps insertion order). */
  const statements = new Map<string, Statement>();
  /** Statements evicted from `statements`, closed in the next round trip. */
  let toClose: string[] = [];
  let counter = 0;

  /** Close messages for the evicted statements, sent ahead of the next round trip's own. */
  function closeEvicted(): Uint8Array[] {
    const messages = toClose.map((name) => protocol.serialize.close({ type: "S", name }));
    toClose = [];
    return messages;
  }

  async function prepare(text: string): Promise<Statement> {
    const known = statements.get(text);
    if (known) {
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    const name = `k${++counter}`;
    const messages = await pglite.execProtocolStream(
      Buffer.concat([
        ...closeEvicted(),
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    if (statements.size > capacity) {
      const [oldest] = statements;
      statements.delete(oldest![0]);
      toClose.push(oldest![1].name);
    }
    return statement;
  }

  async function run<T>(text: string, params: unknown[], options: QueryOptions): Promise<Results<T>> {
    const statement = await prepare(text);
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = statement.paramTypes[i]!;
      const serialize = options.serializers?.[oid] ?? pglite.serializers[oid];
      return serialize ? serialize(param) : String(param);
    });
    try {
      const messages = await pglite.execProtocolStream(
        Buffer.concat([
          ...closeEvicted(),
          protocol.serialize.bind({ statement: statement.name, values }),
          protocol.serialize.describe({ type: "P" }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
        { syncToFs: false },
      );
      return parse.parseResults(messages, pglite.parsers, options)[0] as Results<T>;
    } catch (error) {
      // A statement the server no longer has, or whose result columns changed under it
      // ("cached plan must not change result type"): forget it, so the next call prepares it again.
      if (isStaleStatement(error)) {
        statements.delete(text);
        toClose.push(statement.name);
      }
      throw error;
    }
  }

  /** Outside a transaction, as PGlite's `query`: the transaction lock, then the query lock. */
  async function query<T>(text: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    if (!isDataStatement(text)) return pglite.query<T>(text, params, options);
    await pglite._checkReady();
    return pglite._runExclusiveTransaction(() =>
      pglite._runExclusiveQuery(async () => {
        // A stale statement fails before it runs, and outside a transaction nothing is lost by
        // preparing it again at once.
        const result = await run<T>(text, params, options).catch((error: unknown) => {
          if (isStaleStatement(error)) return run<T>(text, params, options);
          throw error;
        });
        await pglite.syncToFs();
        return result;
      }),
    );
  }

  /** Inside one, as PGlite's `tx.query`: the transaction holds its lock already. */
  function transactionQuery(tx: Transaction) {
    return async <T>(text: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> => {
      if (!isDataStatement(text)) return tx.query<T>(text, params, options);
      // The transaction's own query checks that it is still open; a select of nothing costs no plan.
      if (tx.closed) throw new Error("Transaction is closed");
      return pglite._runExclusiveQuery(() => run<T>(text, params, options));
    };
  }

  return {
    get closed() {
      return pglite.closed;
    },
    get ready() {
      return pglite.ready;
    },
    get waitReady() {
      return pglite.waitReady;
    },
    close: () => pglite.close(),
    query,
    transaction: <T>(callback: (tx: PGliteTransaction) => Promise<T>) =>
      pglite.transaction((tx) => callback({ query: transactionQuery(tx), rollback: () => tx.rollback() })),
  };
}

interface Statement {
  name: string;
  /** The parameters' type OIDs, which pick each value's serializer as PGlite's own `query` does. */
  paramTypes: number[];
}

const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
const isDataStatement = (text: string) => DATA_STATEMENT.test(text);

/**
 * 26000: no such prepared statement; 0A000 with this message: its result type changed since it was
 * planned (0A000 alone is any feature not supported, which preparing again would not mend).
 */
function isStaleStatement(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "26000" || (code === "0A000" && String(message).includes("cached plan must not change result type"));
}
