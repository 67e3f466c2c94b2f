import { dayNumberOf, isoDateOf, previousTradingDay } from "#provider/market/calendar.ts";

/**
 * The weekly expiry on or after `days` from `now`, as the demo market lists it (the journal refuses
 * an expiry off the chain, docs/decisions/0078): that Friday, or the trading day before it when the
 * exchange is closed.
 */
export function weeklyExpiryIn(days: number, now = Date.now()): string {
  const day = new Date(now + days * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((5 - day.getUTCDay() + 7) % 7));
  return isoDateOf(previousTradingDay(dayNumberOf(day.toISOString().slice(0, 10))));
}
