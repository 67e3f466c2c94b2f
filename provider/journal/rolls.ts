import { ROLL_MAX_DAYS, TESTED_DISTANCE, type RollCandidate } from "#contract/rolls.ts";
import { dayNumberOf, yearsToExpiry } from "#provider/market/calendar.ts";
import type { OptionExpiration } from "#provider/market/port.ts";
import { bsGreeks } from "#provider/options/black-scholes.ts";
import { impliedVolatility } from "#provider/options/implied-volatility.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import { probabilityAbove, probabilityBelow } from "#provider/options/probability.ts";
import { CONTRACT_SIZE, type OpenLeg, type WheelTrade } from "./wheel.ts";

/**
 * Roll candidates of an open short option, pure (docs/decisions/0036-roll-candidates-ranked-by-breakeven.md;
 * calls: docs/decisions/0103-covered-call-rolls-ranked-by-the-called-away-gain.md): buy it back at its ask,
 * sell one of the same type at a later expiry at its bid — a put at the same or a lower strike, a call at
 * the same or a higher one. Money per share unless named; one commission (dollars per contract) on each trade.
 */

const cents = (value: number) => Math.round(value * 100) / 100;
const ratio = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * "Tested or losing": the stock within 3 % of the strike on the side that assigns it — at or below
 * strike × 1.03 for a put, at or above strike × 0.97 for a call — or the option's mark above the
 * premium received per share.
 */
export function testedOrLosing(p: {
  optionType: "put" | "call";
  strike: number;
  spot: number | null;
  mark: number | null;
  premiumPerShare: number;
}) {
  const tested =
    p.spot !== null &&
    (p.optionType === "put" ? p.spot <= p.strike * (1 + TESTED_DISTANCE) : p.spot >= p.strike * (1 - TESTED_DISTANCE));
  const losing = p.mark !== null && p.mark > p.premiumPerShare;
  return { tested, losing };
}

/**
 * Premium collected over the position's life, in dollars: the open leg's premium (net of its
 * opening fees) plus the realised P/L of every buy-to-close it was rolled from, back along the
 * chain of rolls (each such P/L is the earlier put's premium less its buy-back and fees).
 */
export function premiumOverLife(leg: OpenLeg, trades: readonly WheelTrade[], pnlOf: (id: number) => number | null) {
  const byId = new Map(trades.map((t) => [t.id, t]));
  const seen = new Set<number>();
  const queue = [...leg.tradeIds];
  let total = leg.premium;
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const opened = byId.get(id);
    if (!opened || opened.rolledFrom === null) continue;
    const closed = byId.get(opened.rolledFrom);
    if (!closed || seen.has(closed.id)) continue;
    seen.add(closed.id);
    total += pnlOf(closed.id) ?? 0;
    // The puts that buy-to-close bought back, to follow their own rolls.
    for (const t of trades) {
      if (
        t.kind === "sell_to_open" &&
        t.ticker === closed.ticker &&
        t.optionType === closed.optionType &&
        t.strike === closed.strike &&
        t.expiry === closed.expiry &&
        t.tradedAt <= closed.tradedAt
      )
        queue.push(t.id);
    }
  }
  return total;
}

export interface RollInput {
  ticker: string;
  /** The open option: a short put, or a covered call. */
  optionType: "put" | "call";
  strike: number;
  expiry: string;
  contracts: number;
  /** Premium collected over the position's life, per share (premiumOverLife ÷ 100 ÷ contracts). */
  premiumCollected: number;
  /** The open option's ask now. */
  closeAsk: number;
  /** A covered call's shares: the journal's adjusted basis a share (ADR 0079); null for a put. */
  adjustedCostBasis?: number | null;
  /** Dollars per contract, charged on each trade. */
  commission: number;
  spot: number;
  asOf: Date;
  /** Calendar day number of today in New York. */
  today: number;
  rate: number;
  dividendYield: number;
  expirations: readonly OptionExpiration[];
  earningsDate: string | null;
  maxDays?: number;
}

/**
 * The new option's |delta| and risk-neutral chance of ending in the money — N(−d2) below a put's strike,
 * N(d2) above a call's — from the volatility its mid implies (else the vendor's).
 */
function riskOf(
  option: { strike: number; bid: number; ask: number; impliedVolatility: number },
  years: number,
  input: RollInput,
) {
  const model = {
    spot: input.spot,
    strike: option.strike,
    years,
    rate: input.rate,
    dividendYield: input.dividendYield,
  };
  let volatility: number | null = null;
  try {
    volatility = impliedVolatility(input.optionType, (option.bid + option.ask) / 2, model);
  } catch {
    if (Number.isFinite(option.impliedVolatility) && option.impliedVolatility > 0)
      volatility = option.impliedVolatility;
  }
  if (volatility === null || !(years > 0)) return { absDelta: null, assignment: null };
  const terminal = {
    spot: input.spot,
    level: option.strike,
    years,
    rate: input.rate,
    dividendYield: input.dividendYield,
    volatility,
  };
  return {
    absDelta: ratio(Math.abs(bsGreeks(input.optionType, { ...model, volatility }).delta)),
    assignment: ratio(input.optionType === "put" ? probabilityBelow(terminal) : probabilityAbove(terminal)),
  };
}

/**
 * Every option of the same type expiring after the current expiry and within `maxDays` of today —
 * a put at or below the current strike, a call at or above it — whose net credit (new bid − close
 * ask − 2 × commission ÷ 100) is above 0. Puts rank by the new breakeven (lower first, to the cent),
 * calls by the gain a share if called away at the new strike (higher first); then the credit per
 * extra day (higher first).
 */
export function rollCandidates(input: RollInput): { candidates: RollCandidate[]; closingCost: number } {
  const maxDays = input.maxDays ?? ROLL_MAX_DAYS;
  const currentDay = dayNumberOf(input.expiry);
  const commissions = (2 * input.commission) / CONTRACT_SIZE;
  const isPut = input.optionType === "put";
  const found: Omit<RollCandidate, "rank">[] = [];
  for (const expiration of input.expirations) {
    const day = dayNumberOf(expiration.expiration);
    const extraDays = day - currentDay;
    const daysToExpiry = day - input.today;
    if (extraDays <= 0 || daysToExpiry > maxDays) continue;
    const years = yearsToExpiry(input.asOf, expiration.expiration);
    for (const option of expiration.options) {
      if (option.type !== input.optionType || !(option.bid > 0)) continue;
      const allowed = isPut ? option.strike <= input.strike + 1e-9 : option.strike >= input.strike - 1e-9;
      if (!allowed) continue;
      const netCredit = option.bid - input.closeAsk - commissions;
      if (!(cents(netCredit * CONTRACT_SIZE) > 0)) continue;
      const perContract = netCredit * CONTRACT_SIZE;
      const risk = riskOf(option, years, input);
      found.push({
        expiry: expiration.expiration,
        strike: option.strike,
        occ_symbol: formatOccSymbol({
          ticker: input.ticker,
          expiration: expiration.expiration,
          type: input.optionType,
          strike: option.strike,
        }),
        bid: option.bid,
        ask: option.ask,
        days_to_expiry: daysToExpiry,
        extra_days: extraDays,
        net_credit: ratio(netCredit),
        net_credit_per_contract: cents(perContract),
        net_credit_total: cents(perContract * input.contracts),
        new_breakeven: isPut ? cents(option.strike - (input.premiumCollected + netCredit)) : null,
        // The shares' average cost less every premium of the cycle is the adjusted basis, so called
        // away at the new strike each share gains strike + this roll's credit − that basis.
        gain_if_called_away:
          !isPut && input.adjustedCostBasis != null ? cents(option.strike + netCredit - input.adjustedCostBasis) : null,
        credit_per_extra_day: cents(perContract / extraDays),
        abs_delta: risk.absDelta,
        assignment_probability: risk.assignment,
        earnings_before_expiry:
          input.earningsDate !== null &&
          dayNumberOf(input.earningsDate) >= input.today &&
          dayNumberOf(input.earningsDate) <= day,
      });
    }
  }
  found.sort(
    (a, b) =>
      (isPut
        ? (a.new_breakeven ?? 0) - (b.new_breakeven ?? 0)
        : (b.gain_if_called_away ?? b.strike) - (a.gain_if_called_away ?? a.strike)) ||
      b.credit_per_extra_day - a.credit_per_extra_day ||
      a.expiry.localeCompare(b.expiry) ||
      b.strike - a.strike,
  );
  return {
    candidates: found.map((c, i) => ({ ...c, rank: i + 1 })),
    closingCost: cents((input.closeAsk * CONTRACT_SIZE + input.commission) * input.contracts),
  };
}
