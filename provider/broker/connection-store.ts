import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";
import { BrokerAccount, SyncResult, type TradierConnection } from "#contract/broker-sync.ts";
import { maskedAccount } from "#contract/broker-sync.ts";

/**
 * Traders' broker connections (issue 43; one broker for now, Tradier). The token is only ever
 * stored as ciphertext (docs/decisions/0075-broker-tokens-encrypted-at-rest.md) and read here for
 * the sync alone; `toConnection` is what leaves the provider, and it holds no token. A sync claims
 * the row first, so one trader's account is read by one sync at a time, whichever process runs it
 * (docs/decisions/0093-tradier-sync-through-the-import.md).
 */

const BROKER = "tradier";

export interface StoredConnection {
  userId: number;
  tokenCiphertext: string;
  account: string | null;
  accounts: BrokerAccount[];
  connectedAt: Date;
  lastSyncedAt: Date | null;
  lastResult: SyncResult | null;
  lastError: string | null;
}

const COLUMNS = [
  "user_id",
  "token_ciphertext",
  "account_number",
  "accounts",
  "connected_at",
  "last_synced_at",
  "last_result",
  "last_error",
] as const;

function fromRow(row: {
  user_id: number;
  token_ciphertext: string;
  account_number: string | null;
  accounts: unknown;
  connected_at: Date;
  last_synced_at: Date | null;
  last_result: unknown;
  last_error: string | null;
}): StoredConnection {
  const result = SyncResult.safeParse(row.last_result);
  return {
    userId: row.user_id,
    tokenCiphertext: row.token_ciphertext,
    account: row.account_number,
    accounts: BrokerAccount.array().catch([]).parse(row.accounts),
    connectedAt: row.connected_at,
    lastSyncedAt: row.last_synced_at,
    lastResult: result.success ? result.data : null,
    lastError: row.last_error,
  };
}

/** What the trader sees of a connection: never the token, the account as ••••1234. */
export function toConnection(stored: StoredConnection): TradierConnection {
  return {
    broker: "tradier",
    account: stored.account ? maskedAccount(stored.account) : null,
    accounts: stored.account ? [] : stored.accounts,
    connected_at: stored.connectedAt.toISOString(),
    last_synced_at: stored.lastSyncedAt?.toISOString() ?? null,
    last_result: stored.lastResult,
    last_error: stored.lastError,
  };
}

export async function findConnection(db: Db, userId: number): Promise<StoredConnection | null> {
  const row = await db
    .selectFrom("broker_connections")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .where("broker", "=", BROKER)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** A new token (and its profile's accounts) replaces any earlier connection; the sync history starts over. */
export async function saveConnection(
  db: Db,
  userId: number,
  tokenCiphertext: string,
  accounts: readonly BrokerAccount[],
): Promise<StoredConnection> {
  const account = accounts.length === 1 ? accounts[0]!.number : null;
  const values = {
    token_ciphertext: tokenCiphertext,
    account_number: account,
    accounts: JSON.stringify(accounts),
    connected_at: new Date(),
    last_synced_at: null,
    last_result: null,
    last_error: null,
  };
  const row = await db
    .insertInto("broker_connections")
    .values({ user_id: userId, broker: BROKER, ...values })
    .onConflict((oc) => oc.columns(["user_id", "broker"]).doUpdateSet(values))
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return fromRow(row);
}

export async function chooseAccount(db: Db, userId: number, account: string): Promise<StoredConnection | null> {
  const row = await db
    .updateTable("broker_connections")
    .set({ account_number: account })
    .where("user_id", "=", userId)
    .where("broker", "=", BROKER)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** Deletes the row, ciphertext and all; answers whether there was one. */
export async function removeConnection(db: Db, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom("broker_connections")
    .where("user_id", "=", userId)
    .where("broker", "=", BROKER)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Claims the trader's connection for one sync until `until`: null when another sync holds it (or
 * there is no connection). One UPDATE, so of two processes (or two taps) one wins.
 */
export async function claimSync(db: Db, userId: number, now: Date, until: Date): Promise<StoredConnection | null> {
  const row = await db
    .updateTable("broker_connections")
    .set({ sync_claimed_until: until })
    .where("user_id", "=", userId)
    .where("broker", "=", BROKER)
    .where((eb) => eb.or([eb("sync_claimed_until", "is", null), eb("sync_claimed_until", "<", now)]))
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** Ends a sync's claim with what it did: a result, or the sentence of its failure (the last result stays). */
export async function finishSync(
  db: Db,
  userId: number,
  outcome: { result: SyncResult; ciphertext?: string | undefined } | { error: string },
): Promise<void> {
  const set =
    "result" in outcome
      ? {
          sync_claimed_until: null,
          last_synced_at: new Date(outcome.result.at),
          last_result: JSON.stringify(outcome.result),
          last_error: null,
          ...(outcome.ciphertext ? { token_ciphertext: outcome.ciphertext } : {}),
        }
      : { sync_claimed_until: null, last_error: outcome.error.slice(0, 500) };
  await db
    .updateTable("broker_connections")
    .set(set)
    .where("user_id", "=", userId)
    .where("broker", "=", BROKER)
    .execute();
}

/** Traders whose chosen account was last synced before `before` (or never), oldest first, at most `limit`. */
export async function dueForSync(db: Db, before: Date, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("broker_connections")
    .select("user_id")
    .where("broker", "=", BROKER)
    .where("account_number", "is not", null)
    .where((eb) => eb.or([eb("last_synced_at", "is", null), eb("last_synced_at", "<", before)]))
    .orderBy(sql`last_synced_at nulls first`)
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}
