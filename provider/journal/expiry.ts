import { CONTRACT_SIZE, expiryCloseOf } from "./wheel.ts";

export { expiryCloseOf };

/**
 * How an expired short option resolves from its expiry day's close (docs/decisions/0078), pure:
 * out of the money it expired; in the money a put was assigned and a call called away; within
 * PIN_BAND of the strike nothing is sure (after-hours moves, the holder's choice), so the trader is
 * asked to confirm instead.
 */

/** The share of the strike around it where the close says nothing sure: 1 %. */
export const PIN_BAND = 0.01;

export type ExpiryOutcome = "expire" | "assignment" | "exercise" | "confirm";

export interface ExpiredLeg {
  ticker: string;
  optionType: "put" | "call";
  strike: number;
  /** YYYY-MM-DD */
  expiry: string;
  contracts: number;
  /** Premium received for the open contracts, net of their opening fees. */
  premium: number;
}

/** True once the expiry day's session has closed. */
export const isPastExpiry = (expiry: string, now: number) => now >= expiryCloseOf(expiry);

/**
 * The outcome at `close`. A $65 put: $64.35 to $65.65 is pin risk (confirm); $64.34 or lower is
 * assigned; $65.66 or higher expired. A $70 call: above $70.70 called away, below $69.30 expired.
 */
export function expiryOutcome(leg: Pick<ExpiredLeg, "optionType" | "strike">, close: number): ExpiryOutcome {
  // A hair of tolerance so a close of exactly 1 % (65.65 on 65) counts as pin risk, as written.
  if (Math.abs(close - leg.strike) <= leg.strike * PIN_BAND + 1e-9) return "confirm";
  if (leg.optionType === "put") return close < leg.strike ? "assignment" : "expire";
  return close > leg.strike ? "exercise" : "expire";
}

const dollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const money = (value: number) => dollars.format(Math.round(value * 100) / 100);

/** "KO 65 put" */
export const legName = (leg: Pick<ExpiredLeg, "ticker" | "strike" | "optionType">) =>
  `${leg.ticker} ${leg.strike} ${leg.optionType}`;

const UNDO = "Recorded in your journal automatically; undo it on Trades if your broker reports otherwise.";

/**
 * The notification telling the trader what was recorded, or asking them to confirm (`reason`: why
 * a clear outcome could not be recorded, e.g. a call with the shares no longer held).
 */
export function resolutionNotice(
  leg: ExpiredLeg,
  close: number,
  outcome: ExpiryOutcome,
  reason: string | null = null,
): { title: string; body: string } {
  const name = legName(leg);
  const shares = leg.contracts * CONTRACT_SIZE;
  const gap = Math.abs(close - leg.strike);
  const closed = `${leg.ticker} closed at ${money(close)} on ${leg.expiry}`;
  switch (outcome) {
    case "expire":
      return {
        title: `${name} expired worthless: recorded automatically`,
        body:
          `${closed}, ${leg.optionType === "put" ? "above" : "below"} the ${money(leg.strike)} strike: the ` +
          `${leg.optionType} expired and its ${money(leg.premium)} premium is kept. ${UNDO}`,
      };
    case "assignment":
      return {
        title: `${name} assigned: ${shares} shares bought at ${money(leg.strike)}, recorded automatically`,
        body:
          `${closed}, ${money(gap)} below the ${money(leg.strike)} strike: the put was assigned, ${shares} shares ` +
          `bought at ${money(leg.strike)} (${money(shares * leg.strike)}). ${UNDO}`,
      };
    case "exercise":
      return {
        title: `${name} called away: ${shares} shares sold at ${money(leg.strike)}, recorded automatically`,
        body:
          `${closed}, ${money(gap)} above the ${money(leg.strike)} strike: the call was exercised, ${shares} shares ` +
          `called away at ${money(leg.strike)} (${money(shares * leg.strike)}). ${UNDO}`,
      };
    case "confirm": {
      const what = leg.optionType === "put" ? "assigned" : "called away";
      const why =
        reason ??
        `within ${Math.round(PIN_BAND * 100)}% of the ${money(leg.strike)} strike, whether it was ${what} depends ` +
          `on after-hours moves and the holder's choice`;
      return {
        title: `${name} expired: confirm whether it was ${what}`,
        body:
          `${closed}; ${why}. Nothing was recorded: on Trades, record it as expired or as ${what}, as your ` +
          `broker reports.`,
      };
    }
  }
}
