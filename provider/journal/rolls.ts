import { ROLL_MAX_DAYS, TESTED_DISTANCE, type RollCandidate } from "#contract/rolls.ts";
import { dayNumberOf, yearsToExpiry } from "#provider/market/calendar.ts";
import type { OptionExpiration } from "#provider/market/port.ts";
import { bsGreeks } from "#provider/options/black-scholes.ts";
import { impliedVolatility } from "#provider/options/implied-volatility.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import { probabilityBelow } from "#provider/options/probability.ts";
import { CONTRACT_SIZE, type OpenLeg, type WheelTrade } from "./wheel.ts";

/**
 * Roll candidates of an open short put, pure (docs/decisions/0036-roll-candidates-ranked-by-breakeven.md):
 * buy the put back at its ask, sell a put at the same or a lower strike at a later expiry at its bid.
 * Money per share unless named; one commission (dollars per contract) on each of the two trades.
 */

const cents = (value: number) => Math.round(value * 100) / 100;
const ratio = (value: number) => Math.round(value * 10_000) / 10_000;

/** "Tested or losing": the stock at or below strike × 1.03, or the put's mark above the premium received per share. */
export function testedOrLosing(p: {
  strike: number;
  spot: number | null;
  mark: number | null;
  premiumPerShare: number;
}) {
  const tested = p.spot !== null && p.spot <= p.strike * (1 + TESTED_DISTANCE);
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
  /** The open put. */
  strike: number;
  expiry: string;
  contracts: number;
  /** Premium collected over the position's life, per share (premiumOverLife ÷ 100 ÷ contracts). */
  premiumCollected: number;
  /** The open put's ask now. */
  closeAsk: number;
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

/** The new put's |delta| and risk-neutral N(−d2), from the volatility its mid implies (else the vendor's). */
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
    volatility = impliedVolatility("put", (option.bid + option.ask) / 2, model);
  } catch {
    if (Number.isFinite(option.impliedVolatility) && option.impliedVolatility > 0)
      volatility = option.impliedVolatility;
  }
  if (volatility === null || !(years > 0)) return { absDelta: null, assignment: null };
  return {
    absDelta: ratio(Math.abs(bsGreeks("put", { ...model, volatility }).delta)),
    assignment: ratio(
      probabilityBelow({
        spot: input.spot,
        level: option.strike,
        years,
        rate: input.rate,
        dividendYield: input.dividendYield,
        volatility,
      }),
    ),
  };
}

/**
 * Every put at or below the current strike, expiring after the current expiry and within
 * `maxDays` of today, whose net credit (new bid − close ask − 2 × commission ÷ 100) is above 0;
 * ranked by the new breakeven (lower first, to the cent), then the credit per extra day (higher first).
 */
export function rollCandidates(input: RollInput): { candidates: RollCandidate[]; closingCost: number } {
  const maxDays = input.maxDays ?? ROLL_MAX_DAYS;
  const currentDay = dayNumberOf(input.expiry);
  const commissions = (2 * input.commission) / CONTRACT_SIZE;
  const found: Omit<RollCandidate, "rank">[] = [];
  for (const expiration of input.expirations) {
    const day = dayNumberOf(expiration.expiration);
    const extraDays = day - currentDay;
    const daysToExpiry = day - input.today;
    if (extraDays <= 0 || daysToExpiry > maxDays) continue;
    const years = yearsToExpiry(input.asOf, expiration.expiration);
    for (const option of expiration.options) {
      if (option.type !== "put" || option.strike > input.strike + 1e-9 || !(option.bid > 0)) continue;
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
          type: "put",
          strike: option.strike,
        }),
        bid: option.bid,
        ask: option.ask,
        days_to_expiry: daysToExpiry,
        extra_days: extraDays,
        net_credit: ratio(netCredit),
        net_credit_per_contract: cents(perContract),
        net_credit_total: cents(perContract * input.contracts),
        new_breakeven: cents(option.strike - (input.premiumCollected + netCredit)),
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
      a.new_breakeven - b.new_breakeven ||
      b.credit_per_extra_day - a.credit_per_extra_day ||
      a.expiry.localeCompare(b.expiry) ||
      b.strike - a.strike,
  );
  return {
    candidates: found.map((c, i) => ({ ...c, rank: i + 1 })),
    closingCost: cents((input.closeAsk * CONTRACT_SIZE + input.commission) * input.contracts),
  };
}
