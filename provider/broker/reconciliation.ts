import type { Db } from "#provider/db/client.ts";
import type { BrokerSnapshot, BrokerSnapshotSource } from "#contract/broker-positions.ts";
import type { Trade } from "#contract/entities.ts";
import { SOURCE_NAMES } from "#contract/broker-names.ts";
import type { ReconcileFixBody, Reconciliation } from "#contract/reconcile.ts";
import { conflict, notFound, unprocessable } from "#provider/http/errors.ts";
import { addTrades } from "#provider/journal/journal.ts";
import { expiryCloseOf } from "#provider/journal/expiry.ts";
import * as journalStore from "#provider/journal/store.ts";
import { brokerBook, cashCover, journalBook, reconcile, sideBySide, totalsOf } from "./reconcile.ts";
import { brokerSnapshots } from "./snapshot-store.ts";

/**
 * The reconciliation's use cases (docs/decisions/0094-reconciling-the-journal-with-the-broker.md):
 * the caller's journal against one of the caller's own snapshots, and a fix recorded through the
 * journal's normal checks only while the difference it answers is still there.
 */

/** The snapshot's moment, or now when a broker dates it ahead of the clock: a fix may not be dated later. */
const momentOf = (snapshot: BrokerSnapshot, now: number) => Math.min(Date.parse(snapshot.as_of), now);

function compare(trades: readonly Trade[], snapshot: BrokerSnapshot, now: number) {
  const asOf = momentOf(snapshot, now);
  const journal = journalBook(trades.map(journalStore.wheelTrade), asOf);
  const broker = brokerBook(snapshot.positions, asOf);
  return { journal, broker, differences: reconcile(journal, broker) };
}

async function snapshotOf(db: Db, userId: number, source: BrokerSnapshotSource | undefined) {
  const snapshots = await brokerSnapshots(db, userId);
  const snapshot = source ? snapshots.find((s) => s.source === source) : snapshots[0];
  // Another trader's snapshot is as absent as one never saved.
  if (source && !snapshot) throw notFound(`There are no positions from ${SOURCE_NAMES[source]} to compare`);
  return { snapshots, snapshot: snapshot ?? null };
}

export async function reconciliationOf(
  db: Db,
  userId: number,
  source: BrokerSnapshotSource | undefined,
  now = Date.now(),
): Promise<Reconciliation> {
  const { snapshots, snapshot } = await snapshotOf(db, userId, source);
  const sources = snapshots.map((s) => ({ source: s.source, as_of: s.as_of }));
  if (!snapshot) {
    const empty = totalsOf([]);
    return {
      snapshot: null,
      sources,
      positions: [],
      totals: { journal: empty, broker: empty },
      cash: cashCover(0, null),
      differences: [],
    };
  }
  const { journal, broker, differences } = compare(await journalStore.listTrades(db, userId), snapshot, now);
  const totals = { journal: totalsOf(journal), broker: totalsOf(broker) };
  return {
    snapshot: { source: snapshot.source, as_of: snapshot.as_of },
    sources,
    positions: sideBySide(journal, broker),
    totals,
    // The journal's puts at the snapshot's moment against the cash the broker held then (ADR 0098).
    cash: cashCover(totals.journal.put_collateral, snapshot.cash),
    differences,
  };
}

/**
 * Records the fix of one difference: found again by its key and action under the journal's lock, with
 * the quantity the page showed, so a second tap or a page from before a change records nothing (409).
 */
export async function applyFix(db: Db, userId: number, body: ReconcileFixBody, now = Date.now()): Promise<Trade> {
  const { snapshot } = await snapshotOf(db, userId, body.source);
  if (snapshot!.as_of !== new Date(body.as_of).toISOString()) {
    throw conflict(
      `The positions from ${SOURCE_NAMES[body.source]} have changed since this page was loaded: nothing was recorded. Look again.`,
    );
  }
  const name = SOURCE_NAMES[body.source];
  const asOf = momentOf(snapshot!, now);
  const day = new Date(asOf).toISOString().slice(0, 10);
  const [added] = await addTrades(
    db,
    userId,
    (existing) => {
      const { differences } = compare(existing, snapshot!, now);
      const difference = differences.find((d) => d.key === body.key && d.fix?.action === body.action);
      const fix = difference?.fix;
      if (!difference || !fix || Math.abs(fix.quantity - body.quantity) > 1e-6) {
        throw conflict("This difference is no longer there as shown: nothing was recorded. Look again.");
      }
      const price = fix.price ?? body.price;
      if (price === undefined || price === null) throw unprocessable("Enter the price a share");
      const option =
        difference.kind === "option"
          ? { option_type: difference.option_type, strike: difference.strike, expiry: difference.expiry }
          : {};
      const expire = fix.action === "expire";
      const trade: journalStore.NewTrade = {
        kind: fix.trade_kind,
        ticker: difference.ticker,
        ...option,
        quantity: fix.quantity,
        price: expire ? 0 : price,
        fees: 0,
        // An expiry happens at its day's close (ADR 0078); the rest when the broker's figures were true.
        traded_at: new Date(expire ? expiryCloseOf(difference.expiry!) : asOf).toISOString(),
        notes: NOTES[fix.action](name, day),
      };
      return [{ trade }];
    },
    now,
  );
  return added!;
}

/** Where a fix's trade came from, in its note: an added one is an "opening position" as an import's (ADR 0074). */
const NOTES: Record<ReconcileFixBody["action"], (broker: string, day: string) => string> = {
  add: (broker, day) => `Opening position: held at ${broker} on ${day}, added by the reconciliation`,
  close: (broker, day) => `Closed to match ${broker} on ${day}, by the reconciliation`,
  expire: (broker, day) => `Expired: ${broker} no longer held it on ${day}, recorded by the reconciliation`,
};
