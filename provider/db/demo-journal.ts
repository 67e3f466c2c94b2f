/**
 * The demo trader's wheel journal (docs/decisions/0079): so Trades, its wheel cycles and the
 * covered-call screen have something on a fresh demo. Dated back from the seed time: a JPM cycle
 * closed (put → shares → call → called away), a KO cycle holding 200 shares from an assigned put,
 * one call expired and one open, and two puts open now on listed strikes and expiries.
 */
import type { BrokerPosition } from "#contract/broker-positions.ts";
import { journalBook, totalsOf } from "#provider/broker/reconcile.ts";
import { saveBrokerSnapshot } from "#provider/broker/snapshot-store.ts";
import type { Db } from "./client.ts";
import { wheelTrade, type NewTrade } from "#provider/journal/store.ts";
import { addTrades } from "#provider/journal/journal.ts";
import { isTradingDay, isoDateOf, nyClock, weekdayOf } from "#provider/market/calendar.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData } from "#provider/market/port.ts";

const DAY_MS = 86_400_000;
const FRIDAY = 5;

/** The last Friday that is a trading day, on or before `day` (an expiry). */
function fridayOnOrBefore(day: number): number {
  let d = day;
  while (weekdayOf(d) !== FRIDAY || !isTradingDay(d)) d -= 1;
  return d;
}

/** The first trading day on or after `day`. */
function tradingDayFrom(day: number): number {
  let d = day;
  while (!isTradingDay(d)) d += 1;
  return d;
}

/** A New York mid-session instant (15:00 UTC is 10:00 or 11:00 in New York) of a day. */
const midSession = (day: number) => `${isoDateOf(day)}T15:00:00.000Z`;
/** After the close of an expiry day (16:00 in New York is 20:00 or 21:00 UTC). */
const afterClose = (day: number) => `${isoDateOf(day)}T21:30:00.000Z`;

const option = (
  kind: NewTrade["kind"],
  ticker: string,
  optionType: "put" | "call",
  strike: number,
  expiry: number,
  quantity: number,
  price: number,
  at: string,
): NewTrade => ({
  kind,
  ticker,
  option_type: optionType,
  strike,
  expiry: isoDateOf(expiry),
  quantity,
  price,
  fees: kind === "sell_to_open" || kind === "buy_to_close" ? 0.65 * quantity : 0,
  traded_at: at,
  portfolio: "Default Portfolio",
  strategy: "Wheel",
  notes: null,
  confidence: 2,
});

/** A listed option now: the expiry at least `minDays` out and the strike nearest `target` on the side asked. */
async function listed(market: MarketData, ticker: string, type: "put" | "call", minDays: number, target: number) {
  const chain = await market.optionChain(ticker);
  const today = nyClock(chain.asOf).dayNumber;
  for (const expiration of chain.expirations) {
    const [y, m, d] = expiration.expiration.split("-").map(Number) as [number, number, number];
    if (Math.floor(Date.UTC(y, m - 1, d) / DAY_MS) - today < minDays) continue;
    const quoted = expiration.options.filter((o) => o.type === type && o.bid > 0);
    const side = quoted.filter((o) =>
      type === "put" ? o.strike <= target * chain.spot : o.strike >= target * chain.spot,
    );
    if (side.length === 0) continue;
    const best = side.reduce((a, b) =>
      Math.abs(b.strike - target * chain.spot) < Math.abs(a.strike - target * chain.spot) ? b : a,
    );
    return { expiry: expiration.expiration, strike: best.strike, bid: best.bid };
  }
  return null;
}

/** The demo journal's trades, oldest first, dated back from `now`. */
export async function demoJournalTrades(market: MarketData, now: number): Promise<NewTrade[]> {
  const today = nyClock(new Date(now)).dayNumber;
  const trades: NewTrade[] = [];

  // JPM, closed: a 210 put assigned, a 215 call called away.
  const jpmPutExpiry = fridayOnOrBefore(today - 105);
  const jpmCallExpiry = fridayOnOrBefore(today - 75);
  trades.push(
    option("sell_to_open", "JPM", "put", 210, jpmPutExpiry, 1, 2.1, midSession(tradingDayFrom(jpmPutExpiry - 25))),
    option("assignment", "JPM", "put", 210, jpmPutExpiry, 1, 0, afterClose(jpmPutExpiry)),
    option("sell_to_open", "JPM", "call", 215, jpmCallExpiry, 1, 1.8, midSession(tradingDayFrom(jpmPutExpiry + 3))),
    option("exercise", "JPM", "call", 215, jpmCallExpiry, 1, 0, afterClose(jpmCallExpiry)),
  );

  // KO, open: two 65 puts assigned, two 67 calls expired; the shares then back one open call.
  const koPutExpiry = fridayOnOrBefore(today - 50);
  const koCallExpiry = fridayOnOrBefore(today - 22);
  trades.push(
    option("sell_to_open", "KO", "put", 65, koPutExpiry, 2, 1.2, midSession(tradingDayFrom(koPutExpiry - 25))),
    option("assignment", "KO", "put", 65, koPutExpiry, 2, 0, afterClose(koPutExpiry)),
    option("sell_to_open", "KO", "call", 67, koCallExpiry, 2, 0.45, midSession(tradingDayFrom(koPutExpiry + 3))),
    option("expire", "KO", "call", 67, koCallExpiry, 2, 0, afterClose(koCallExpiry)),
  );

  // Open now, at today's quotes: a KO call above the basis, and two cash-secured puts. An hour ago,
  // so a seed run before the open still dates them in the past.
  const anHourAgo = new Date(now - 3_600_000).toISOString();
  const open = await Promise.all([
    listed(market, "KO", "call", 10, 1.03).then(
      (o) => o && { ticker: "KO", type: "call" as const, contracts: 1, ...o },
    ),
    listed(market, "AAPL", "put", 14, 0.94).then(
      (o) => o && { ticker: "AAPL", type: "put" as const, contracts: 1, ...o },
    ),
    listed(market, "MSFT", "put", 21, 0.93).then(
      (o) => o && { ticker: "MSFT", type: "put" as const, contracts: 1, ...o },
    ),
  ]).catch(() => []);
  for (const leg of open) {
    if (!leg) continue;
    trades.push({
      ...option("sell_to_open", leg.ticker, leg.type, leg.strike, 0, leg.contracts, leg.bid, anHourAgo),
      expiry: leg.expiry,
    });
  }
  return trades;
}

/** Gives the demo trader their journal; the journal's own rules check every trade, as any trader's. */
export async function seedDemoJournal(db: Db, market: MarketData, now = marketNow(market).getTime()): Promise<void> {
  const demo = await db.selectFrom("users").select("id").where("username", "=", "demo").executeTakeFirst();
  if (!demo) return;
  const trades = await demoJournalTrades(market, now);
  const added = await addTrades(
    db,
    demo.id,
    trades.map((trade) => ({ trade })),
    now,
  );
  // A broker's book for Reconcile (ADR 0094): the journal's, less the MSFT put and with 50 T shares
  // the journal never bought, so the demo shows a difference each way.
  const positions: BrokerPosition[] = journalBook(added.map(wheelTrade), now)
    .filter((p) => !(p.kind === "option" && p.ticker === "MSFT"))
    .map(({ ticker, kind, option_type, strike, expiry, holding }) => ({
      ticker,
      kind,
      option_type,
      strike,
      expiry,
      quantity: holding.quantity,
      cost_basis: holding.cost_basis,
    }));
  positions.push({
    ticker: "T",
    kind: "shares",
    option_type: null,
    strike: null,
    expiry: null,
    quantity: 50,
    cost_basis: 25.4,
  });
  // The broker's cash (ADR 0098): $2,500 less than the journal's puts commit, so Reconcile shows the
  // shortfall in words.
  const committed = totalsOf(journalBook(added.map(wheelTrade), now)).put_collateral;
  await saveBrokerSnapshot(db, demo.id, {
    source: "ibkr",
    as_of: new Date(now).toISOString(),
    positions,
    cash: Math.max(0, committed - 2500),
  });
}
