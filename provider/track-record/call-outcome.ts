/**
 * How one suggested covered call turned out, from the stock's close on its expiry day
 * (docs/decisions/0088). Pure arithmetic on one short call held to expiry against shares held at the
 * trader's adjusted basis, per share and gross of commission; early assignment is left out.
 */

export type CallOutcome = "called_away" | "kept";

export interface CoveredCallOutcome {
  outcome: CallOutcome;
  /**
   * Called away: premium + strike − adjusted basis, what the whole cycle made a share once the shares
   * are sold at the strike. Kept: the premium alone; the shares stay held, and their change in value
   * is not realised, so it is not counted.
   */
  pnlPerShare: number;
  /** pnlPerShare / adjusted basis. */
  realisedReturn: number;
  /** premium / adjusted basis: the income the call promised on the money in the shares. */
  promisedReturn: number;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * A call sold at `premium` a share, at `strike`, on shares whose adjusted basis is `adjustedBasis`,
 * with the stock closing at `close` on expiry day. Above the strike the call is exercised and the
 * shares are called away; at or below it the call has no intrinsic value and expires (the journal's
 * rule, provider/journal/expiry.ts).
 */
export function scoreCall(input: {
  strike: number;
  premium: number;
  adjustedBasis: number;
  close: number;
}): CoveredCallOutcome {
  const { strike, premium, adjustedBasis, close } = input;
  if (!(strike > 0) || !(premium >= 0) || !(adjustedBasis > 0) || !(close >= 0)) {
    throw new RangeError(
      `A covered call needs a positive strike and basis and a non-negative premium and close (got ${strike}, ${premium}, ${adjustedBasis}, ${close})`,
    );
  }
  const calledAway = close > strike;
  // Rounded to a hundredth of a cent so float sums read as the cents they are.
  const pnlPerShare = round4(calledAway ? premium + strike - adjustedBasis : premium);
  return {
    outcome: calledAway ? "called_away" : "kept",
    pnlPerShare,
    realisedReturn: pnlPerShare / adjustedBasis,
    promisedReturn: premium / adjustedBasis,
  };
}
