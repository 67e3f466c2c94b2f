// Zod-free: the Trades screen links to Add Trade without loading the form's schemas (ADR 0051).
import type { HrefWithSearch } from "#app/lib/href.ts";
import { RECORD_TRADE_PARAM } from "./record-trade.ts";

/**
 * An expired short option awaiting its resolution (docs/decisions/0078): the Trades screen's words
 * and its links to Add Trade, filled in to record it as expired, assigned or called away at the
 * expiry day's close. Kept here, not in the message catalogue, which every list page loads first.
 */
export const RESOLVE_EXPIRY_TEXT = {
  awaiting: "Expired: awaiting resolution",
  hint: "Past its expiry, so nothing is held against it. Record what your broker reports.",
  recordExpired: "Record as expired",
  recordAssigned: "Record as assigned",
  recordCalledAway: "Record as called away",
  automatic: "Recorded automatically from the expiry day's close",
  undo: "Undo",
} as const;

/** Add Trade's query parameters beyond "Record this trade"'s: what happened, how many, when. */
export const RESOLVE_PARAM = { action: "action", contracts: "contracts", date: "date" } as const;

/** The actions a resolution link may carry (read by prefillFromSearch). */
export const RESOLVE_ACTIONS = ["expire", "assignment", "exercise"] as const;

/** The instant the expiry day closes, as Add Trade's UTC date-time value (16:00 New York, 13:00 on an early close). */
export function resolveHref(
  option: { ticker: string; option_type: "put" | "call"; strike: number; expiry: string; contracts: number },
  action: (typeof RESOLVE_ACTIONS)[number],
  closedAt: string,
): string {
  const search = new URLSearchParams({
    form: "options",
    [RECORD_TRADE_PARAM.ticker]: option.ticker,
    [RECORD_TRADE_PARAM.strike]: String(option.strike),
    [RECORD_TRADE_PARAM.expiry]: option.expiry,
    [RECORD_TRADE_PARAM.type]: option.option_type,
    [RESOLVE_PARAM.action]: action,
    [RESOLVE_PARAM.contracts]: String(option.contracts),
    [RESOLVE_PARAM.date]: closedAt.slice(0, 16),
  });
  return `/add-trade?${search}` satisfies HrefWithSearch;
}
