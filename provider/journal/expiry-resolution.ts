import { sql } from "kysely";
import type { ProviderContext } from "#provider/context.ts";
import type { Db } from "#provider/db/client.ts";
import { positionKey } from "#provider/alerts/position-alerts.ts";
import { isoDateOf, nyClock, tradingIndexOf, dayNumberOf } from "#provider/market/calendar.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData } from "#provider/market/port.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import { pushNotice, storeNotice, type Notice, type NotifyResult } from "#provider/push/notify.ts";
import * as store from "./store.ts";
import { expiryCloseOf, expiryOutcome, isPastExpiry, legName, resolutionNotice, type ExpiryOutcome } from "./expiry.ts";
import { replay, type OpenLeg } from "./wheel.ts";

/**
 * Expiry resolves itself (docs/decisions/0078): after the close of an expiry day, each short option
 * still open in a journal is resolved from that day's close. A clear outcome is recorded as a trade
 * marked `recorded_automatically` (undone by deleting it on Trades); pin risk, or an outcome the
 * journal cannot take, becomes a notification asking the trader to confirm.
 *
 * Once per position, whoever runs it: the (user, position) row in expiry_resolutions is claimed with
 * INSERT … ON CONFLICT DO NOTHING in the transaction that records the trade and stores the
 * notification, under the user's journal lock; a second process, a restart or a later run finds the
 * row and does nothing, also after the trader undid the record.
 */

type ResolveContext = Pick<ProviderContext, "db" | "market" | "push">;

export interface ResolvedExpiry {
  userId: number;
  positionKey: string;
  outcome: ExpiryOutcome;
  close: number;
  /** The trade recorded; null when the trader is asked to confirm. */
  tradeId: number | null;
  result: NotifyResult;
}

/** Users with a short option past its expiry day still open (sold more than closed). */
async function usersWithExpiredOpenOptions(db: Db, today: string): Promise<number[]> {
  const rows = await db
    .selectFrom("trades")
    .select("user_id")
    .where("option_type", "is not", null)
    .where("expiry", "<=", today)
    .groupBy(["user_id", "ticker", "option_type", "strike", "expiry"])
    .having(sql<number>`sum(case when kind = 'sell_to_open' then quantity else -quantity end)`, ">", 0)
    .execute();
  return [...new Set(rows.map((r) => r.user_id))];
}

const keyOf = (leg: OpenLeg) =>
  positionKey(
    formatOccSymbol({ ticker: leg.ticker, expiration: leg.expiry, type: leg.optionType, strike: leg.strike }),
    leg.tradeIds,
  );

/** The close of `ticker` on the expiry day from the market's daily bars; null when it has none (yet). */
function closesFrom(market: MarketData, today: number) {
  const memo = new Map<string, Promise<number | null>>();
  return (ticker: string, expiry: string) => {
    const key = `${ticker}|${expiry}`;
    let close = memo.get(key);
    if (!close) {
      // Trading days from the expiry day to today, both included, and one to spare.
      const days = Math.min(400, Math.max(5, tradingIndexOf(today) - tradingIndexOf(dayNumberOf(expiry)) + 2));
      close = market
        .dailyHistory(ticker, days)
        .then((bars) => bars.find((bar) => bar.time === expiry)?.close ?? null)
        .then((value) => (value !== null && value > 0 ? value : null))
        .catch((error: Error) => {
          console.error(`[expiry] no daily bars for ${ticker}: ${error.message}`);
          return null;
        });
      memo.set(key, close);
    }
    return close;
  };
}

class NothingToDo extends Error {}

/**
 * Resolves one expired leg in one transaction: claims it, checks it is still open, records the
 * outcome (or asks to confirm) and stores the notification. Null when another run has it or the
 * trader closed it meanwhile.
 */
async function resolveLeg(db: Db, userId: number, key: string, close: number, now: number) {
  try {
    return await db.transaction().execute(async (tx) => {
      await store.lockJournal(tx, userId);
      const trades = await store.listTrades(tx, userId);
      const current = replay(trades.map(store.wheelTrade), now);
      const leg = current.ok ? current.wheel.legs.find((l) => keyOf(l) === key) : undefined;
      if (!leg) throw new NothingToDo();
      let outcome = expiryOutcome(leg, close);
      const claimed = await tx
        .insertInto("expiry_resolutions")
        .values({ user_id: userId, position_key: key, outcome, close })
        .onConflict((oc) => oc.columns(["user_id", "position_key"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!claimed) throw new NothingToDo();

      let reason: string | null = null;
      let tradeId: number | null = null;
      if (outcome !== "confirm") {
        const trade: store.NewTrade = {
          kind: outcome,
          ticker: leg.ticker,
          option_type: leg.optionType,
          strike: leg.strike,
          expiry: leg.expiry,
          quantity: leg.contracts,
          price: 0,
          fees: 0,
          traded_at: new Date(expiryCloseOf(leg.expiry)).toISOString(),
          notes: `Recorded automatically from the close of $${close.toFixed(2)} on ${leg.expiry}`,
        };
        const trial = replay([...trades.map(store.wheelTrade), store.wheelTrade({ ...trade, id: -1 })], now);
        if (trial.ok) {
          tradeId = (await store.insertTrade(tx, userId, trade, { recordedAutomatically: true })).id;
        } else {
          // E.g. a call whose shares were sold since: the journal cannot take it, so the trader says.
          reason = `it could not be recorded as ${outcome === "exercise" ? "called away" : outcome === "assignment" ? "assigned" : "expired"}: ${trial.refusal.reason}`;
          outcome = "confirm";
        }
      }
      const texts = resolutionNotice({ ...leg, premium: Math.round(leg.premium * 100) / 100 }, close, outcome, reason);
      const notice: Notice = {
        type: outcome === "confirm" ? "alert" : "trade",
        title: texts.title,
        body: texts.body,
        url: "/portfolio",
        actionRequired: outcome === "confirm",
      };
      const stored = await storeNotice(tx, [userId], notice);
      await tx
        .updateTable("expiry_resolutions")
        .set({ outcome, trade_id: tradeId, notification_id: stored.notificationId })
        .where("id", "=", claimed.id)
        .execute();
      return { outcome, tradeId, stored, notice };
    });
  } catch (error) {
    if (error instanceof NothingToDo) return null;
    throw error;
  }
}

/**
 * One pass: every open short option past its expiry day's close is resolved from that day's
 * close, once. Callable from a test with `now`; the scheduled job calls it without.
 */
export async function resolveExpiries(
  context: ResolveContext,
  options: { now?: Date | undefined; signal?: AbortSignal | undefined } = {},
): Promise<ResolvedExpiry[]> {
  const { db, market } = context;
  // The market's day, not the server's (ADR 0091).
  const now = options.now ?? marketNow(market);
  const today = nyClock(now).dayNumber;
  const userIds = await usersWithExpiredOpenOptions(db, isoDateOf(today));
  if (userIds.length === 0) return [];
  const done = new Set(
    (
      await db
        .selectFrom("expiry_resolutions")
        .select(["user_id", "position_key"])
        .where("user_id", "in", userIds)
        .execute()
    ).map((r) => `${r.user_id}|${r.position_key}`),
  );
  const closeOf = closesFrom(market, today);
  const resolved: ResolvedExpiry[] = [];
  for (const userId of userIds) {
    if (options.signal?.aborted) break;
    const trades = await store.listTrades(db, userId);
    const result = replay(trades.map(store.wheelTrade), now.getTime());
    if (!result.ok) continue;
    for (const leg of result.wheel.legs) {
      if (options.signal?.aborted) break;
      const key = keyOf(leg);
      if (!isPastExpiry(leg.expiry, now.getTime()) || done.has(`${userId}|${key}`)) continue;
      const close = await closeOf(leg.ticker, leg.expiry);
      if (close === null) continue; // no bar for the day yet: the next run tries again
      const outcome = await resolveLeg(db, userId, key, close, now.getTime());
      if (!outcome) continue;
      const pushed = await pushNotice(context, outcome.stored, outcome.notice);
      console.info(`[expiry] ${legName(leg)} of user ${userId}: ${outcome.outcome} at ${close}`);
      resolved.push({
        userId,
        positionKey: key,
        outcome: outcome.outcome,
        close,
        tradeId: outcome.tradeId,
        result: pushed,
      });
    }
  }
  return resolved;
}
