/**
 * How one recommended put turned out, from the stock's close on its expiry day. Pure arithmetic on
 * one short put held to expiry, per share and gross of commission: early assignment, commissions
 * and what the assigned shares did afterwards are left out.
 */

export type Outcome = "expired_worthless" | "assigned";

export interface PutOutcome {
  outcome: Outcome;
  /** Profit or loss per share: the premium kept, less (strike − close) when assigned. */
  pnlPerShare: number;
  /** pnlPerShare / strike: the return on the cash set aside (strike × 100 a contract) over the holding period. */
  realisedReturn: number;
  /** premium / strike: what the recommendation promised, the return when the put expires worthless. */
  promisedReturn: number;
  /** Whether the seller ended ahead: the close above the breakeven (strike − premium). */
  profitable: boolean;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * A put sold at `premium` a share, at `strike`, with the stock closing at `close` on expiry day. A
 * close at or above the strike leaves the put worthless (no intrinsic value); below it the seller
 * is assigned and buys at the strike shares worth the close.
 */
export function scorePut(input: { strike: number; premium: number; close: number }): PutOutcome {
  const { strike, premium, close } = input;
  if (!(strike > 0) || !(premium >= 0) || !(close >= 0)) {
    throw new RangeError(
      `A put needs a positive strike and non-negative premium and close (got ${strike}, ${premium}, ${close})`,
    );
  }
  const assigned = close < strike;
  // Rounded to a hundredth of a cent so 2.00 − 5.00 reads −3, not −2.9999999999999996.
  const pnlPerShare = round4(premium - (assigned ? strike - close : 0));
  return {
    outcome: assigned ? "assigned" : "expired_worthless",
    pnlPerShare,
    realisedReturn: pnlPerShare / strike,
    promisedReturn: premium / strike,
    profitable: pnlPerShare > 0,
  };
}
