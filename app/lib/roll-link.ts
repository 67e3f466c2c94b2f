import type { Href } from "#app/lib/href.ts";
// Zod-free, so the Trades screen links to roll candidates without loading the roll form's schema.
/**
 * The roll candidates screen's texts (docs/product.md#screens-roll-candidates). Kept here, not in
 * the message catalogue, which every list page loads first: /user-stocks sits at its first-load budget.
 */
export const ROLL_TEXT = {
  title: "Roll candidates",
  link: "Roll candidates",
  tested: (type: OptionType) =>
    type === "put"
      ? "Tested: the stock is within 3% of the strike or below it"
      : "Tested: the stock is within 3% of the strike or above it",
  losing: (type: OptionType) => `Losing: the ${type} costs more to buy back than it brought in`,
  rule: (type: OptionType) =>
    type === "put"
      ? "Later expiries up to 90 days out, at the same or a lower strike, that pay a net credit: the new put's bid, less the ask to buy this one back, less two commissions. Best first: the lowest new breakeven, then the most credit per extra day."
      : "Later expiries up to 90 days out, at the same or a higher strike, that pay a net credit: the new call's bid, less the ask to buy this one back, less two commissions. Best first: the most each share gains if called away at the new strike, then the most credit per extra day.",
  none: (closingCost: string) => `No roll for a net credit; closing costs ${closingCost}`,
  record: "Record this roll",
  recordTitle: "Record this roll",
  recorded: "Roll recorded",
} as const;

type OptionType = "put" | "call";

/** The query parameters of the "Record this roll" link (read by the roll screen's loader). */
export const RECORD_ROLL_PARAM = { strike: "strike", expiry: "expiry", bid: "bid" } as const;

/** The roll candidates of the open put or covered call that trade `tradeId` sold. */
export const rollHref = (tradeId: number) => `/portfolio/roll/${tradeId}` satisfies Href;

/** "Record this roll": the same screen with its form open, filled in with this candidate at its bid. */
export function recordRollHref(tradeId: number, candidate: { strike: number; expiry: string; bid: number }): string {
  const search = new URLSearchParams({
    [RECORD_ROLL_PARAM.strike]: String(candidate.strike),
    [RECORD_ROLL_PARAM.expiry]: candidate.expiry,
    [RECORD_ROLL_PARAM.bid]: String(candidate.bid),
  });
  return `${rollHref(tradeId)}?${search}`;
}
