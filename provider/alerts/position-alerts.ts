/**
 * Alerts on open short options, puts and calls (docs/product.md#alerts-positions, ADR 0034): after
 * each price refresh the job looks at every trader's open short options and tells them, once per
 * position and event, when the profit target is reached, the stock nears or crosses the strike,
 * earnings fall before expiry, the option expires tomorrow in the money, or early assignment
 * becomes likely by the rule of its type (ADR 0077: a call before an ex-dividend date, a put deep
 * in the money).
 *
 * "Once" is kept by the database, not by the leader lock: each (user, position, event) is
 * claimed by an INSERT ... ON CONFLICT DO NOTHING RETURNING in the same transaction that stores
 * the notification; only the run whose insert returned a row pushes it. A restart or a second
 * process finds the row and sends nothing.
 */
import type { AlertSettings, PositionAlertEvent } from "#contract/position-alerts.ts";
import type { ProviderContext } from "#provider/context.ts";
import type { Db } from "#provider/db/client.ts";
import * as store from "#provider/journal/store.ts";
import { CONTRACT_SIZE, replay } from "#provider/journal/wheel.ts";
import {
  dayNumberOf,
  isoDateOf,
  isTradingDay,
  nyClock,
  previousTradingDay,
  yearsToExpiry,
} from "#provider/market/calendar.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData, OptionChain } from "#provider/market/port.ts";
import { FALLBACK_RISK_FREE_RATE, marketRate } from "#provider/market/rates.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import { pushNotice, storeNotice, type Notice, type NotifyResult } from "#provider/push/notify.ts";
import { savedFilters } from "#provider/recommend/filters.ts";
import { savedAlertSettings } from "./settings.ts";

/** An open short option (put or call) of one trader, as the journal replays it. */
export interface ShortPosition {
  userId: number;
  /** OCC symbol and the id of the trade that opened it: an option closed and opened again is a new position. */
  key: string;
  ticker: string;
  optionType: "put" | "call";
  strike: number;
  /** YYYY-MM-DD */
  expiry: string;
  contracts: number;
  /** Premium received for the open contracts, net of their opening fees: the most the option can make. */
  premium: number;
}

/** What the market says about the position's stock and option at this run. */
export interface PositionFacts {
  spot: number;
  /** The option's quote; null when the chain has no such contract or no ask. */
  option: { bid: number; ask: number } | null;
  /** Next earnings report (YYYY-MM-DD), null when unknown. */
  earnings: string | null;
  /** Next ex-dividend date and dividend per share, null when unknown or none. */
  exDividend: { date: string; amount: number } | null;
  /** The continuous risk-free rate the market prices with (a fraction), for the put's early-exercise rule. */
  rate: number;
  /** Years (of 365 days) from now to the close of the expiry day. */
  yearsToExpiry: number;
}

export interface DueAlert {
  event: PositionAlertEvent;
  title: string;
  body: string;
}

const dollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const money = (value: number) => dollars.format(value);
const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
const cents = (value: number) => Math.round(value * 100) / 100;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** "AAPL 180 put", "JPM 260 call" (the strike as traders write it). */
const optionName = (p: ShortPosition) => `${p.ticker} ${p.strike} ${p.optionType}`;

/**
 * The put's early-exercise threshold (ADR 0077): the interest the holder earns on the strike from
 * now to expiry, strike × (e^(rT) − 1), per share. $100 at 4% for 0.25 years: $1.0050.
 */
export const strikeInterest = (strike: number, rate: number, years: number) => strike * Math.expm1(rate * years);

/** Trading days after `from` up to and including `to` (0 when `to` is `from` or before it). */
export function tradingDaysUntil(from: number, to: number): number {
  let count = 0;
  for (let day = from + 1; day <= to; day++) if (isTradingDay(day)) count++;
  return count;
}

/** The first NYSE trading day after `day`. */
function nextTradingDay(day: number): number {
  let next = day + 1;
  while (!isTradingDay(next)) next++;
  return next;
}

/**
 * The events due for one position on New York day `today`, with their texts. Pure: the caller
 * leaves out events already sent.
 *
 * Worked example (the profit target): 1 contract sold for $2.50 less $0.65 fees keeps $249.35 at
 * most; with the ask at $1.10, buying to close costs $110.00 plus $0.65 commission, keeping
 * $138.70, which is 55.6% of $249.35: at a 50% threshold the alert is due.
 */
export function dueAlerts(
  position: ShortPosition,
  facts: PositionFacts,
  settings: AlertSettings,
  commission: number,
  today: number,
): DueAlert[] {
  const due: DueAlert[] = [];
  const { strike, expiry, contracts, ticker } = position;
  const expiryDay = dayNumberOf(expiry);
  if (expiryDay < today) return due;
  const { spot } = facts;
  const name = optionName(position);
  const call = position.optionType === "call";
  const kind = position.optionType;
  // Intrinsic value per share: what the option is in the money by (0 out of the money).
  const intrinsic = Math.max(0, call ? spot - strike : strike - spot);
  const inTheMoney = intrinsic > 0;
  const mid = facts.option ? (facts.option.bid + facts.option.ask) / 2 : null;
  /** Mid less intrinsic, never below 0. */
  const timeValue = mid === null ? null : Math.max(0, mid - intrinsic);

  // 1. Profit taken: closing at the ask (what a buy-to-close pays) and the trader's commission.
  if (facts.option && facts.option.ask > 0 && position.premium > 0) {
    const { ask } = facts.option;
    const closingCommission = commission * contracts;
    const kept = position.premium - ask * CONTRACT_SIZE * contracts - closingCommission;
    const share = kept / position.premium;
    if (share >= settings.profit_share) {
      due.push({
        event: "profit_target",
        title: `${name}: ${percent(share)} of the maximum profit`,
        body:
          `Buy to close for ${money(ask)} a share (the ask; ${money(ask * CONTRACT_SIZE * contracts)} for ` +
          `${plural(contracts, "contract")}) keeps ${money(cents(kept))} of the ${money(position.premium)} premium, ` +
          `net of your ${money(commission)} commission per contract.`,
      });
    }
  }

  // 2. The stock through the strike (the option in the money: below a put's, above a call's), or
  // near it on the safe side (at it included).
  if (inTheMoney) {
    due.push({
      event: "through_strike",
      title: `${ticker} went through your ${name}'s strike`,
      body:
        `${ticker} is at ${money(spot)}, ${money(cents(intrinsic))} ${call ? "above" : "below"} the ${money(strike)} ` +
        `strike of your ${kind} expiring ${expiry}: the ${kind} is in the money.`,
    });
  } else if (call ? spot >= strike * (1 - settings.strike_distance) : spot <= strike * (1 + settings.strike_distance)) {
    due.push({
      event: "near_strike",
      title: `${ticker} is within ${percent(settings.strike_distance)} of your ${name}'s strike`,
      body:
        `${ticker} is at ${money(spot)}, ${percent(Math.abs(spot - strike) / strike)} ${call ? "below" : "above"} the ` +
        `${money(strike)} strike of your ${kind} expiring ${expiry}.`,
    });
  }

  // 3. An earnings report on or before the expiry day, within the trader's trading days.
  if (facts.earnings) {
    const report = dayNumberOf(facts.earnings);
    const ahead = tradingDaysUntil(today, report);
    if (report >= today && report <= expiryDay && ahead <= settings.earnings_days) {
      const when = ahead === 0 ? "today" : `in ${plural(ahead, "trading day")}`;
      due.push({
        event: "earnings",
        title: `${ticker} reports earnings before your ${name} expires`,
        body: `${ticker} reports earnings on ${facts.earnings} (${when}), before your ${kind} expires on ${expiry}.`,
      });
    }
  }

  // 4. Expiry on the next trading day with the option in the money.
  if (nextTradingDay(today) === expiryDay && inTheMoney) {
    const shares = CONTRACT_SIZE * contracts;
    due.push({
      event: "expiry_itm",
      title: `${name} expires tomorrow in the money`,
      body: call
        ? `Your call expires on ${expiry} with ${ticker} at ${money(spot)}, ${money(cents(intrinsic))} above the ` +
          `strike: your shares are likely to be called away (${shares} shares at ${money(strike)} for ${money(strike * shares)}).`
        : `Your put expires on ${expiry} with ${ticker} at ${money(spot)}, ${money(cents(intrinsic))} below the ` +
          `strike: assignment is likely (${shares} shares for ${money(strike * shares)}).`,
    });
  }

  // 5. Early assignment, by the rule of the option's type (ADR 0077). A pending dividend makes a
  // put's early exercise less likely, so it never raises the put's alert.
  if (call && facts.exDividend && timeValue !== null && mid !== null && inTheMoney) {
    // A call: in the money with its time value below the dividend, on the trading day before the
    // ex-date, the last day a holder can exercise to collect the dividend.
    const exDay = dayNumberOf(facts.exDividend.date);
    const lastDay = previousTradingDay(exDay - 1);
    if (today >= lastDay && today < exDay && exDay <= expiryDay && timeValue < facts.exDividend.amount) {
      due.push({
        event: "ex_dividend",
        title: `${ticker} goes ex-dividend on ${facts.exDividend.date}: your ${name} may be assigned early`,
        body:
          `${ticker} goes ex-dividend on ${facts.exDividend.date} (${money(facts.exDividend.amount)} a share) and your ` +
          `call is in the money: its time value of ${money(cents(timeValue))} (mid ${money(cents(mid))} less ` +
          `${money(cents(intrinsic))} intrinsic) is below the dividend, so the holder may exercise before the ` +
          `ex-date and call your ${plural(CONTRACT_SIZE * contracts, "share")} away at ${money(strike)}.`,
      });
    }
  }
  if (!call && timeValue !== null && mid !== null && inTheMoney) {
    // A put: deep in the money, its time value below the interest the holder would earn on the
    // strike received by exercising now, strike × (e^(rT) − 1).
    const interest = strikeInterest(strike, facts.rate, facts.yearsToExpiry);
    if (timeValue < interest) {
      due.push({
        event: "early_exercise",
        title: `${name} is deep in the money: early assignment is a risk`,
        body:
          `${ticker} is at ${money(spot)}, ${money(cents(intrinsic))} below the strike: your put's time value of ` +
          `${money(cents(timeValue))} (mid ${money(cents(mid))} less ${money(cents(intrinsic))} intrinsic) is below the ` +
          `${money(cents(interest))} a share the ${money(strike)} strike earns by ${expiry} at ` +
          `${percent(facts.rate)} a year, so the holder gains by exercising early.`,
      });
    }
  }
  return due;
}

/** A position's key: its OCC symbol and the trade that opened it (a put reopened later is a new position). */
export const positionKey = (occSymbol: string, tradeIds: readonly number[]) => `${occSymbol}#${tradeIds[0]}`;

/** Every trader's open short options that have not expired before New York day `today`. */
async function openShortPositions(db: Db, today: number, now: number): Promise<ShortPosition[]> {
  const users = await db
    .selectFrom("trades")
    .select("user_id")
    .distinct()
    .where("kind", "=", "sell_to_open")
    .where("expiry", ">=", isoDateOf(today))
    .execute();
  const positions: ShortPosition[] = [];
  for (const { user_id: userId } of users) {
    const trades = await store.listTrades(db, userId);
    const result = replay(trades.map(store.wheelTrade), now);
    if (!result.ok) continue; // cannot happen for stored trades (journal.ts); nothing to alert on
    for (const leg of result.wheel.legs) {
      if (dayNumberOf(leg.expiry) < today) continue;
      const occ = formatOccSymbol({
        ticker: leg.ticker,
        expiration: leg.expiry,
        type: leg.optionType,
        strike: leg.strike,
      });
      positions.push({
        userId,
        key: positionKey(occ, leg.tradeIds),
        ticker: leg.ticker,
        optionType: leg.optionType,
        strike: leg.strike,
        expiry: leg.expiry,
        contracts: leg.contracts,
        premium: cents(leg.premium),
      });
    }
  }
  return positions;
}

export interface RaisedAlert {
  userId: number;
  positionKey: string;
  event: PositionAlertEvent;
  result: NotifyResult;
}

/**
 * Claims the (user, position, event) and stores its notification in one transaction; null when
 * another run (a restart, another process) claimed it first.
 */
async function claim(db: Db, position: ShortPosition, alert: DueAlert, notice: Notice) {
  return db.transaction().execute(async (tx) => {
    const claimed = await tx
      .insertInto("position_alerts")
      .values({ user_id: position.userId, position_key: position.key, event: alert.event })
      .onConflict((oc) => oc.columns(["user_id", "position_key", "event"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!claimed) return null;
    const stored = await storeNotice(tx, [position.userId], notice);
    await tx
      .updateTable("position_alerts")
      .set({ notification_id: stored.notificationId })
      .where("id", "=", claimed.id)
      .execute();
    return stored;
  });
}

type AlertContext = Pick<ProviderContext, "db" | "push" | "market">;

/** Market facts per ticker, each asked of the vendor only when an unsent event needs it. */
function factsSource(market: MarketData) {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    if (!memo.has(key)) memo.set(key, load());
    return memo.get(key) as Promise<T>;
  };
  const orNull = <T>(promise: Promise<T>): Promise<T | null> => promise.catch(() => null);
  return {
    spot: (ticker: string) => once(`q:${ticker}`, () => market.quote(ticker).then((q) => q.price)),
    chain: (ticker: string) => once(`c:${ticker}`, () => orNull<OptionChain>(market.optionChain(ticker))),
    earnings: (ticker: string) => once(`e:${ticker}`, () => orNull(market.nextEarningsDate(ticker))),
    exDividend: (ticker: string) =>
      once(`d:${ticker}`, () => orNull(market.nextExDividend?.(ticker) ?? Promise.resolve(null))),
    rate: () => once("rate", () => marketRate(market).catch(() => FALLBACK_RISK_FREE_RATE)),
  };
}

function optionQuote(chain: OptionChain | null, position: ShortPosition) {
  const expiration = chain?.expirations.find((e) => e.expiration === position.expiry);
  const option = expiration?.options.find(
    (o) => o.type === position.optionType && Math.abs(o.strike - position.strike) < 1e-6,
  );
  return option && option.ask > 0 ? { bid: option.bid, ask: option.ask } : null;
}

/**
 * One pass over every open short option: sends each due alert not sent before, once. A vendor
 * failure on a ticker skips its positions until the next run.
 */
export async function raisePositionAlerts(
  context: AlertContext,
  options: { now?: Date | undefined; signal?: AbortSignal | undefined } = {},
): Promise<RaisedAlert[]> {
  const { db, market } = context;
  // The market's day, not the server's (ADR 0091).
  const now = options.now ?? marketNow(market);
  const today = nyClock(now).dayNumber;
  const positions = await openShortPositions(db, today, now.getTime());
  if (positions.length === 0) return [];

  const sentRows = await db
    .selectFrom("position_alerts")
    .select(["user_id", "position_key", "event"])
    .where("user_id", "in", [...new Set(positions.map((p) => p.userId))])
    .execute();
  const sent = new Set(sentRows.map((r) => `${r.user_id}|${r.position_key}|${r.event}`));
  const unsent = (p: ShortPosition, event: PositionAlertEvent) => !sent.has(`${p.userId}|${p.key}|${event}`);

  const facts = factsSource(market);
  const settingsOf = new Map<number, Promise<[AlertSettings, number]>>();
  const raised: RaisedAlert[] = [];
  for (const position of positions) {
    if (options.signal?.aborted) break;
    let spot: number;
    try {
      spot = await facts.spot(position.ticker);
    } catch (error) {
      console.error(`[alerts] no quote for ${position.ticker}: ${(error as Error).message}`);
      continue;
    }
    const call = position.optionType === "call";
    const needsOption = unsent(position, "profit_target") || unsent(position, call ? "ex_dividend" : "early_exercise");
    const [chain, earnings, exDividend] = await Promise.all([
      needsOption ? facts.chain(position.ticker) : null,
      unsent(position, "earnings") ? facts.earnings(position.ticker) : null,
      call && unsent(position, "ex_dividend") ? facts.exDividend(position.ticker) : null,
    ]);
    if (!settingsOf.has(position.userId)) {
      settingsOf.set(
        position.userId,
        Promise.all([
          savedAlertSettings(db, position.userId),
          savedFilters(db, position.userId).then((f) => f.commission),
        ]),
      );
    }
    const [settings, commission] = await settingsOf.get(position.userId)!;
    const due = dueAlerts(
      position,
      {
        spot,
        option: optionQuote(chain, position),
        earnings,
        exDividend,
        rate: await facts.rate(),
        yearsToExpiry: yearsToExpiry(now, position.expiry),
      },
      settings,
      commission,
      today,
    ).filter((alert) => unsent(position, alert.event));
    for (const alert of due) {
      const notice: Notice = {
        type: "alert",
        title: alert.title,
        body: alert.body,
        url: "/portfolio",
        actionRequired: true,
      };
      const stored = await claim(db, position, alert, notice);
      if (!stored) continue;
      const result = await pushNotice(context, stored, notice);
      raised.push({ userId: position.userId, positionKey: position.key, event: alert.event, result });
    }
  }
  return raised;
}

/** The events already sent per position key, for the journal's badges. */
export async function sentAlertsOf(db: Db, userId: number): Promise<Map<string, PositionAlertEvent[]>> {
  const rows = await db
    .selectFrom("position_alerts")
    .select(["position_key", "event"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  const byKey = new Map<string, PositionAlertEvent[]>();
  for (const row of rows) {
    const list = byKey.get(row.position_key) ?? [];
    list.push(row.event as PositionAlertEvent);
    byKey.set(row.position_key, list);
  }
  return byKey;
}
