/**
 * A trader's Tradier account into the journal (issue 43; docs/decisions/0093-tradier-sync-through-the-import.md):
 * the token checked against Tradier's profile and stored encrypted on connect (ADR 0075); a sync
 * claims the connection, reads the positions, the cash and the history since a week before the last sync (all
 * of it the first time, at most HISTORY_PAGES pages), adds the history through the broker-file
 * import (its per-line keys make a second sync add nothing), saves the positions as the "tradier"
 * snapshot and keeps the result. A failure is kept as a sentence naming it, and changes nothing.
 */
import type { Db } from "#provider/db/client.ts";
import { HttpError } from "#provider/http/errors.ts";
import { importLines } from "#provider/journal/import.ts";
import { eventSummary, inHistoryOrder, parseTradierHistory } from "#provider/journal/brokers/tradier.ts";
import { InvalidOccSymbolError, parseOccSymbol } from "#provider/options/occ-symbol.ts";
import { BrokerCash, BrokerPosition, type BrokerSnapshot } from "#contract/broker-positions.ts";
import { SYNC_REFUSALS_SHOWN, type SyncResult } from "#contract/broker-sync.ts";
import { saveBrokerSnapshot } from "./snapshot-store.ts";
import { claimSync, findConnection, finishSync, saveConnection, type StoredConnection } from "./connection-store.ts";
import type { BrokerSettings } from "./settings.ts";
import {
  BrokerError,
  createTradierBrokerage,
  type TradierBrokerage,
  type TradierHistoryEvent,
  type TradierPosition,
} from "./tradier-brokerage.ts";

/** History events a page asks for, and pages one sync reads: 10,000 lines, the import's own bound. */
const HISTORY_PAGE = 500;
const HISTORY_PAGES = 20;
/** A sync's claim: far longer than a sync takes, short enough that a crashed one frees the row soon. */
const CLAIM_MS = 5 * 60_000;
/** Days read again before the last sync: a late-posted event (an assignment booked a day later) is not missed. */
const OVERLAP_DAYS = 7;
const DAY_MS = 86_400_000;

export const SYNC_TEXT = {
  notConnected: "Connect your Tradier account first",
  chooseAccount: "Choose which Tradier account to sync first",
  underWay: "A sync of your Tradier account is under way: its result shows here when it ends",
  unreadable: "The stored token can no longer be read (the server's key changed): connect again",
  failed: "The sync failed: try again",
} as const;

const owner = (userId: number) => `tradier:${userId}`;

function client(settings: BrokerSettings, token: string): TradierBrokerage {
  return createTradierBrokerage({ token, baseUrl: settings.tradierUrl, fetch: settings.fetch });
}

/** Checks the token with Tradier (its profile) before anything is stored; a refusal stores nothing. */
export async function connectTradier(
  db: Db,
  settings: BrokerSettings,
  userId: number,
  token: string,
): Promise<StoredConnection> {
  let accounts;
  try {
    accounts = await client(settings, token).accounts();
  } catch (error) {
    if (error instanceof BrokerError) throw new HttpError(error.status, error.message);
    throw error;
  }
  return saveConnection(db, userId, settings.cipher.encrypt(token, owner(userId)), accounts);
}

export async function syncTradier(
  db: Db,
  settings: BrokerSettings,
  userId: number,
  now = new Date(),
): Promise<SyncResult> {
  const claimed = await claimSync(db, userId, now, new Date(now.getTime() + CLAIM_MS));
  if (!claimed) {
    const exists = await findConnection(db, userId);
    throw new HttpError(exists ? 409 : 404, exists ? SYNC_TEXT.underWay : SYNC_TEXT.notConnected);
  }
  try {
    if (!claimed.account) throw new BrokerError(409, SYNC_TEXT.chooseAccount);
    const token = settings.cipher.decrypt(claimed.tokenCiphertext, owner(userId));
    if (token === null) throw new BrokerError(422, SYNC_TEXT.unreadable);
    const tradier = client(settings, token);
    const positions = await tradier.positions(claimed.account);
    const cash = await tradier.cash(claimed.account);
    const { events, truncated } = await readHistory(tradier, claimed.account, claimed.lastSyncedAt);

    const preview = await importLines(
      db,
      userId,
      "tradier",
      async (pace) => ({ lines: await parseTradierHistory(events, pace), positions: null }),
      {},
      now.getTime(),
    );
    const snapshot = snapshotOf(positions, cash, now);
    await saveBrokerSnapshot(db, userId, snapshot);

    const ordered = inHistoryOrder(events);
    const dayOf = (line: number) => (ordered[line - 1]?.date ?? "").slice(0, 10);
    const result: SyncResult = {
      at: now.toISOString(),
      added: preview.added.length,
      already: preview.duplicates.length,
      not_trades: preview.skipped,
      refused: preview.refused.length,
      refusals: preview.refused.slice(0, SYNC_REFUSALS_SHOWN).map((r) => ({
        date: dayOf(r.line),
        what: ordered[r.line - 1] ? eventSummary(ordered[r.line - 1]!) : "",
        reason: r.reason,
      })),
      openings: preview.openings.length,
      positions: snapshot.positions.length,
      truncated,
    };
    // A token sealed with a retired key is sealed again with the current one (ADR 0075).
    const resealed = settings.cipher.isStale(claimed.tokenCiphertext)
      ? settings.cipher.encrypt(token, owner(userId))
      : undefined;
    await finishSync(db, userId, { result, ciphertext: resealed });
    return result;
  } catch (error) {
    const known = error instanceof BrokerError || error instanceof HttpError;
    await finishSync(db, userId, { error: known ? error.message : SYNC_TEXT.failed });
    if (error instanceof BrokerError) throw new HttpError(error.status, error.message);
    throw error;
  }
}

/** The history since a week before the last sync (all of it the first time), page by page, bounded. */
async function readHistory(tradier: TradierBrokerage, account: string, lastSyncedAt: Date | null) {
  const start = lastSyncedAt
    ? new Date(lastSyncedAt.getTime() - OVERLAP_DAYS * DAY_MS).toISOString().slice(0, 10)
    : undefined;
  const events: TradierHistoryEvent[] = [];
  for (let page = 1; page <= HISTORY_PAGES; page++) {
    const got = await tradier.history(account, page, HISTORY_PAGE, start);
    events.push(...got);
    if (got.length < HISTORY_PAGE) return { events, truncated: false };
  }
  return { events, truncated: true };
}

/**
 * Tradier's positions as the reconciliation reads them: OCC symbols parsed into ticker, put or
 * call, strike and expiry; quantity negative when short; cost basis a share (Tradier's is the
 * position's total, negative for premium received). A position the contract cannot hold is left out.
 */
function snapshotOf(positions: readonly TradierPosition[], cash: number | null, now: Date): BrokerSnapshot {
  const out: BrokerPosition[] = [];
  for (const p of positions) {
    const quantity = typeof p.quantity === "number" ? p.quantity : Number.NaN;
    const symbol = typeof p.symbol === "string" ? p.symbol.trim().toUpperCase() : "";
    let contract = null;
    try {
      contract = parseOccSymbol(symbol);
    } catch (error) {
      if (!(error instanceof InvalidOccSymbolError)) throw error;
    }
    const units = Math.abs(quantity) * (contract ? 100 : 1);
    const basis =
      typeof p.cost_basis === "number" && units > 0
        ? Math.round((Math.abs(p.cost_basis) / units) * 10_000) / 10_000
        : null;
    const position = contract
      ? {
          ticker: contract.ticker,
          kind: "option",
          option_type: contract.type,
          strike: contract.strike,
          expiry: contract.expiration,
          quantity,
          cost_basis: basis,
        }
      : { ticker: symbol, kind: "shares", option_type: null, strike: null, expiry: null, quantity, cost_basis: basis };
    const parsed = BrokerPosition.safeParse(position);
    if (parsed.success) out.push(parsed.data);
  }
  const stated = BrokerCash.safeParse(cash);
  return {
    source: "tradier",
    as_of: now.toISOString(),
    positions: out.slice(0, 2000),
    cash: stated.success ? stated.data : null,
  };
}
