/**
 * The journal's refusals of an option that cannot exist (docs/product.md#screens-add-trade-forms,
 * issue 41): their words, spelled once for the provider that refuses and the Add Trade form that
 * shows each beside its field. No zod: the app's server imports it without the contract's schemas.
 */

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const TRADE_REFUSAL = {
  weekend: (expiry: string, weekday: string) =>
    `Expiry ${expiry} is a ${weekday}: options expire on exchange trading days`,
  holiday: (expiry: string, holiday: string) =>
    `Expiry ${expiry} is ${holiday}, an NYSE holiday: options expire on exchange trading days`,
  unlistedExpiry: (ticker: string, expiry: string, listed: readonly string[]) =>
    `Expiry ${expiry} is not listed for ${ticker} options; the chain lists ${listed.join(", ")}`,
  unlistedStrike: (ticker: string, type: string, expiry: string, strike: number, nearest: readonly number[]) =>
    `Strike ${strike} is not listed for ${ticker} ${type}s expiring ${expiry}; the nearest listed ${
      nearest.length === 1 ? "is" : "are"
    } ${nearest.join(" and ")}`,
  /** A short call beyond the shares held: PutSeller records covered calls only. */
  uncoveredCall: (ticker: string, contracts: number, needed: number, free: number) =>
    `Not covered: ${plural(contracts, "call")} on ${ticker} need ${needed} shares, and ${plural(free, "share")} ` +
    `of ${ticker} ${free === 1 ? "is" : "are"} held and not already covering a call. Only covered calls are ` +
    `recorded: record the shares first.`,
  /** A share sale that would leave open short calls without their shares. */
  uncoveredBySale: (ticker: string, shares: number, covering: number) =>
    `Not covered: selling ${plural(shares, "share")} of ${ticker} would leave open calls needing ` +
    `${covering} shares without them. Close the calls first.`,
} as const;

/** The Add Trade field a refusal belongs beside (both forms name these fields alike); null for the form. */
export function fieldOfTradeRefusal(detail: string): "expiry" | "strike" | "quantity" | null {
  if (detail.startsWith("Expiry ")) return "expiry";
  if (detail.startsWith("Strike ")) return "strike";
  if (detail.startsWith("Not covered: ")) return "quantity";
  return null;
}
