/**
 * Per-stock partitions of a scheduled job, shared by the provider processes on one PostgreSQL
 * server (docs/decisions/0085-scheduled-work-partitioned-by-stock.md). Each process claims a few
 * due stocks with `FOR UPDATE SKIP LOCKED` (two processes never take the same row) under a lease;
 * the work's own transaction completes the claim only if the lease is still this process's, so a
 * stock is done once per round, and a process that dies leaves its claims to expire and be taken
 * by another.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from "kysely";
import type { Database, JobPartitionsTable } from "#provider/db/schema.ts";

type PartitionedJob = JobPartitionsTable["job"];

type OverStocks = ExpressionBuilder<Database & { s: Database["stocks"] }, "s">;

interface Claim {
  stockId: number;
  ticker: string;
}

/** The claim was lost (its lease expired and another process took it): the work must roll back. */
export class LeaseLost extends Error {
  constructor(job: PartitionedJob, stockId: number) {
    super(`${job}: the lease on stock ${stockId} was lost`);
    this.name = "LeaseLost";
  }
}

/**
 * Gives every stock the job works for a partition (due at once) and drops those it no longer does.
 * Runs at the start of each process's pass; both statements are idempotent under concurrency.
 */
export async function syncPartitions(
  db: Kysely<Database>,
  job: PartitionedJob,
  which: (eb: OverStocks) => Expression<SqlBool>,
): Promise<void> {
  await db
    .insertInto("job_partitions")
    .columns(["job", "stock_id"])
    .expression((eb) =>
      eb
        .selectFrom("stocks as s")
        .select([sql<PartitionedJob>`${job}`.as("job"), "s.id"])
        .where(which),
    )
    .onConflict((oc) => oc.columns(["job", "stock_id"]).doNothing())
    .execute();
  await db
    .deleteFrom("job_partitions as p")
    .where("p.job", "=", job)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("stocks as s")
            .select("s.id")
            .whereRef("s.id", "=", "p.stock_id")
            .where((inner) => which(inner as unknown as OverStocks)),
        ),
      ),
    )
    .execute();
}

/**
 * Claims up to `limit` due partitions nobody holds (or whose holder's lease ran out) for `leaseMs`.
 * Rows another process is claiming at this instant are skipped, not waited for.
 */
export async function claimPartitions(
  db: Kysely<Database>,
  options: { job: PartitionedJob; owner: string; limit: number; leaseMs: number },
): Promise<Claim[]> {
  const { job, owner, limit, leaseMs } = options;
  const result = await sql<{ stock_id: number; ticker: string }>`
    UPDATE job_partitions p
    SET leased_by = ${owner}, leased_until = now() + ${leaseMs} * interval '1 millisecond', claimed_at = now()
    FROM stocks s
    WHERE s.id = p.stock_id AND p.job = ${job} AND p.stock_id IN (
      SELECT stock_id FROM job_partitions
      WHERE job = ${job} AND due_at <= now() AND (leased_until IS NULL OR leased_until < now())
      ORDER BY due_at, stock_id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING p.stock_id, s.ticker`.execute(db);
  return result.rows.map((r) => ({ stockId: r.stock_id, ticker: r.ticker })).sort((a, b) => a.stockId - b.stockId);
}

/**
 * Ends this process's claim on one stock: due again `intervalMs` after it was claimed, and counted
 * as a run when `done`. Inside the work's transaction it throws LeaseLost when the claim is no
 * longer this process's, so the work is rolled back rather than done twice.
 */
export async function completePartition(
  db: Kysely<Database> | Transaction<Database>,
  options: { job: PartitionedJob; owner: string; stockId: number; intervalMs: number; done: boolean },
): Promise<void> {
  const { job, owner, stockId, intervalMs, done } = options;
  const result = await db
    .updateTable("job_partitions")
    .set({
      due_at: sql<Date>`claimed_at + ${intervalMs} * interval '1 millisecond'`,
      leased_by: null,
      leased_until: null,
      runs: done ? sql<number>`runs + 1` : sql<number>`runs`,
    })
    .where("job", "=", job)
    .where("stock_id", "=", stockId)
    .where("leased_by", "=", owner)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new LeaseLost(job, stockId);
}

/** Gives claims back undone and due at once (a stopping process), for another process to take. */
export async function releasePartitions(
  db: Kysely<Database>,
  options: { job: PartitionedJob; owner: string },
): Promise<void> {
  await db
    .updateTable("job_partitions")
    .set({ leased_by: null, leased_until: null })
    .where("job", "=", options.job)
    .where("leased_by", "=", options.owner)
    .execute();
}
