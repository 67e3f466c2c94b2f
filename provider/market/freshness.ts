/**
 * Is a price fresh enough to act on? A price is stale when it was made before the latest regular
 * session began (with a grace for vendors' delay at the open): during Wednesday's session a price
 * from Tuesday's close is stale; before Wednesday's open it is the latest there is. Stale figures
 * are shown with their age and not used to generate recommendations (docs/decisions/0030).
 *
 * Exchange holidays: the NYSE calendar (calendar.ts) is always applied, so a quote from the Wednesday
 * before Thanksgiving is still the latest on Thursday and Friday morning; a vendor that publishes
 * its own calendar (Tradier) may pass more closed days, which are added to it.
 */
import { OPEN_MINUTE, closeMinuteOf, isTradingDay, isoDateOf, nyClock, nyInstant } from "./calendar.ts";

/** How long after the open a price from the session before still counts (delayed feeds, first trades). */
const OPEN_GRACE_MINUTES = 20;

/** The open of the latest regular session that has begun at `now`. */
export function latestSessionOpen(now: Date, closedDays: ReadonlySet<string> = new Set()): Date {
  const { dayNumber, minutes } = nyClock(now);
  const isSession = (day: number) => isTradingDay(day) && !closedDays.has(isoDateOf(day));
  let day = dayNumber;
  if (!(isSession(day) && minutes >= OPEN_MINUTE)) day--;
  for (let i = 0; i < 30 && !isSession(day); i++) day--;
  return nyInstant(day, OPEN_MINUTE);
}

/** The close of the latest session that has ended at `now` (the figures a closed market shows). */
export function latestSessionClose(now: Date, closedDays: ReadonlySet<string> = new Set()): Date {
  const open = latestSessionOpen(now, closedDays);
  const day = nyClock(open).dayNumber;
  const close = nyInstant(day, closeMinuteOf(day));
  if (close.getTime() <= now.getTime()) return close;
  return latestSessionClose(new Date(open.getTime() - 60_000), closedDays);
}

export function isStale(asOf: Date, now: Date, closedDays?: ReadonlySet<string>): boolean {
  const open = latestSessionOpen(now, closedDays).getTime();
  const graceEnds = open + OPEN_GRACE_MINUTES * 60_000;
  // Within the grace the previous session's figures still count.
  const since = now.getTime() < graceEnds ? latestSessionOpen(new Date(open - 60_000), closedDays).getTime() : open;
  return asOf.getTime() < since;
}

export interface ClosedMarketBid {
  bid: number;
  bidSource: "quote" | "last";
}

/**
 * The bid to use for a contract. While the market is open a zero bid is real (nobody bids) and is
 * kept. Once it is closed, vendors often zero bids (Yahoo zeroes bid and ask after hours), which
 * would leave nothing to sell: a contract that traded in the latest session then takes its last
 * trade as the bid, capped at the ask when there is one, marked "last". A contract whose last
 * trade is older keeps its zero bid and is left out.
 */
export function closedMarketBid(
  q: { bid: number; ask: number; last: number; lastTradeAt?: Date | undefined },
  marketOpen: boolean,
  sessionOpen: Date,
): ClosedMarketBid {
  if (marketOpen || q.bid > 0 || !(q.last > 0) || !q.lastTradeAt) return { bid: q.bid, bidSource: "quote" };
  if (q.lastTradeAt.getTime() < sessionOpen.getTime()) return { bid: q.bid, bidSource: "quote" };
  return { bid: q.ask > 0 ? Math.min(q.last, q.ask) : q.last, bidSource: "last" };
}
