import { TRADE_REFUSAL } from "#contract/trade-refusals.ts";
import { dayNumberOf, holidayName, isoDateOf, nyClock, weekdayOf } from "#provider/market/calendar.ts";
import { marketNow } from "#provider/market/clock.ts";
import type { MarketData } from "#provider/market/port.ts";
import { HttpError } from "#provider/http/errors.ts";

/**
 * What the journal checks of a new option trade before replaying it (issue 41): an expiry on an
 * exchange trading day, and a strike and expiry the chain lists when it still lists them. Stored
 * trades are not checked again: a journal that replayed once keeps replaying.
 */

type OptionFields = {
  kind: string;
  ticker: string;
  option_type?: string | null;
  strike?: number | null;
  expiry?: string | null;
};

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/** Options expire on NYSE trading days: a Saturday, a Sunday or a holiday is refused with its name. */
export function expiryRefusal(trade: OptionFields): string | null {
  if (!trade.expiry) return null;
  const day = dayNumberOf(trade.expiry);
  const weekday = weekdayOf(day);
  if (weekday === 0 || weekday === 6) return TRADE_REFUSAL.weekend(trade.expiry, WEEKDAYS[weekday]!);
  const holiday = holidayName(day);
  return holiday ? TRADE_REFUSAL.holiday(trade.expiry, holiday) : null;
}

/** Listed expiries named in a refusal: enough to pick from on a phone. */
const LISTED_SHOWN = 8;

/**
 * A sell-to-open whose expiry is still ahead must be on the chain: the expiry listed for the
 * ticker, the strike listed for that expiry and type. A source that cannot give the chain (an
 * unknown ticker, a vendor down) leaves the check out rather than refuse what may exist.
 */
export async function listingRefusal(market: MarketData, trade: OptionFields, now: Date): Promise<string | null> {
  if (trade.kind !== "sell_to_open" || !trade.expiry || trade.strike == null || !trade.option_type) return null;
  // A weekend or holiday is said as such, not as a date the chain happens not to list.
  if (expiryRefusal(trade)) return null;
  if (trade.expiry < isoDateOf(nyClock(now).dayNumber)) return null; // an expired option is off the chain
  let chain;
  try {
    chain = await market.optionChain(trade.ticker);
  } catch {
    return null;
  }
  if (chain.expirations.length === 0) return null;
  const expiration = chain.expirations.find((e) => e.expiration === trade.expiry);
  if (!expiration) {
    const listed = chain.expirations.map((e) => e.expiration);
    // The listed dates nearest the one asked, in date order.
    const nearest = [...listed]
      .sort(
        (a, b) =>
          Math.abs(dayNumberOf(a) - dayNumberOf(trade.expiry!)) - Math.abs(dayNumberOf(b) - dayNumberOf(trade.expiry!)),
      )
      .slice(0, LISTED_SHOWN)
      .sort();
    return TRADE_REFUSAL.unlistedExpiry(trade.ticker, trade.expiry, nearest);
  }
  const strikes = expiration.options.filter((o) => o.type === trade.option_type).map((o) => o.strike);
  if (strikes.length === 0 || strikes.some((s) => Math.abs(s - trade.strike!) < 1e-6)) return null;
  const below = Math.max(...strikes.filter((s) => s < trade.strike!));
  const above = Math.min(...strikes.filter((s) => s > trade.strike!));
  const nearest = [below, above].filter((s) => Number.isFinite(s));
  return TRADE_REFUSAL.unlistedStrike(trade.ticker, trade.option_type, trade.expiry, trade.strike, nearest);
}

/** Refuses (422, the reason as the detail) the first trade the chain does not list; see listingRefusal. */
export async function requireListed(market: MarketData, trades: readonly OptionFields[]): Promise<void> {
  const now = marketNow(market);
  for (const trade of trades) {
    const refusal = await listingRefusal(market, trade, now);
    if (refusal) throw new HttpError(422, refusal);
  }
}
