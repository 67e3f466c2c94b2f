import type { Db } from "#provider/db/client.ts";
import {
  BrokerCash,
  BrokerPosition,
  type BrokerSnapshot,
  type BrokerSnapshotInput,
  type BrokerSnapshotSource,
} from "#contract/broker-positions.ts";

/**
 * What brokers say the trader holds (issue 43): one snapshot a source, the latest replacing the one
 * before, written by a broker sync or an import that lists the account's positions.
 */

export async function saveBrokerSnapshot(db: Db, userId: number, snapshot: BrokerSnapshotInput): Promise<void> {
  const row = {
    as_of: snapshot.as_of,
    positions: JSON.stringify(snapshot.positions),
    // The broker's cash beside its positions (docs/decisions/0098-positions-files-and-broker-cash.md).
    cash: snapshot.cash ?? null,
  };
  await db
    .insertInto("broker_snapshots")
    .values({ user_id: userId, source: snapshot.source, ...row })
    .onConflict((oc) => oc.columns(["user_id", "source"]).doUpdateSet({ ...row, saved_at: new Date() }))
    .execute();
}

/** The trader's snapshots, the most recent `as_of` first. */
export async function brokerSnapshots(db: Db, userId: number): Promise<BrokerSnapshot[]> {
  const rows = await db
    .selectFrom("broker_snapshots")
    .select(["source", "as_of", "positions", "cash"])
    .where("user_id", "=", userId)
    .orderBy("as_of", "desc")
    .execute();
  return rows.map((row) => ({
    source: row.source as BrokerSnapshotSource,
    as_of: row.as_of.toISOString(),
    // Written through the contract's schema; read back through it so a row is what the type says.
    positions: BrokerPosition.array().parse(row.positions),
    cash: row.cash === null ? null : BrokerCash.parse(Number(row.cash)),
  }));
}

/** The snapshot of one source, or null when that broker has told us nothing yet. */
export async function brokerSnapshot(
  db: Db,
  userId: number,
  source: BrokerSnapshotSource,
): Promise<BrokerSnapshot | null> {
  return (await brokerSnapshots(db, userId)).find((s) => s.source === source) ?? null;
}

export async function removeBrokerSnapshot(db: Db, userId: number, source: BrokerSnapshotSource): Promise<void> {
  await db.deleteFrom("broker_snapshots").where("user_id", "=", userId).where("source", "=", source).execute();
}
