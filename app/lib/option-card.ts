/**
 * docs/product.md#states-option-card and the option detail's plain-words greeks, as pure functions:
 * the same answer on the server and in the browser, unit-tested at their boundaries.
 */
import { fixedDecimals, formatAge, formatGreek, formatPercent, formatPrice } from "./format.ts";

/** Strike above the stock price is in the money (a put), otherwise out of the money. */
type Moneyness = "ITM" | "OTM";

export function moneyness(strike: number, stockPrice: number): Moneyness {
  return strike > stockPrice ? "ITM" : "OTM";
}

/** How far the strike is from the stock price: up to 5 %, up to 15 %, above 15 %. */
type DistanceBand = "near" | "mid" | "far";

export const DISTANCE_BAND_LABEL: Record<DistanceBand, string> = {
  near: "Within 5%",
  mid: "5–15% away",
  far: "Over 15% away",
};

interface StrikeDistance {
  /** |stock price − strike|, in dollars. */
  dollars: number;
  /** The same as a fraction of the stock price (0.05 is 5 %). */
  fraction: number;
  /** The percentage as the card shows it (1 decimal), e.g. "5.0%". */
  percentText: string;
  band: DistanceBand;
  /** Where the strike sits against the stock price. */
  side: "below" | "above" | "at";
}

/** One decimal, as formatPercent writes it; the band is judged on this so it never contradicts the number shown. */
const shownPercent = (percent: number) => Number(fixedDecimals(percent, 1).replaceAll(",", ""));

export function distanceBand(percentShown: number): DistanceBand {
  if (percentShown <= 5) return "near";
  if (percentShown <= 15) return "mid";
  return "far";
}

export function strikeDistance(strike: number, stockPrice: number): StrikeDistance {
  const dollars = Math.abs(stockPrice - strike);
  const fraction = stockPrice > 0 ? dollars / stockPrice : 0;
  const percent = shownPercent(fraction * 100);
  return {
    dollars,
    fraction,
    percentText: formatPercent(fraction),
    band: distanceBand(percent),
    side: strike < stockPrice ? "below" : strike > stockPrice ? "above" : "at",
  };
}

/** The option price against its weekly range, by thirds: up in the top third, down in the bottom third. */
export type Trend = "up" | "down" | "neutral";

export const TREND_LABEL: Record<Trend, string> = {
  up: "Near its weekly high",
  down: "Near its weekly low",
  neutral: "Mid weekly range",
};

/** Prices are in cents; this keeps float noise (2.96 stored as 2.9599…) from tipping a price at a boundary. */
const EPSILON = 1e-9;

/**
 * Up when the option price is above the weekly high minus a third of the weekly range, down when
 * below the weekly low plus a third, else neutral. Exactly at either line is neutral.
 */
export function priceTrend(optionPrice: number, weeklyLow: number, weeklyHigh: number): Trend {
  const third = (weeklyHigh - weeklyLow) / 3;
  if (optionPrice > weeklyHigh - third + EPSILON) return "up";
  if (optionPrice < weeklyLow + third - EPSILON) return "down";
  return "neutral";
}

/** "2026-11-27" → "11/27" (the date chips); read from the text, so no time zone can shift it. */
export function expiryChip(date: string): string {
  const [, month, day] = date.split("-");
  return `${month}/${day}`;
}

// Built on first use, not in the first script task of /insights (see fixedDecimals).
let longDate: Intl.DateTimeFormat | undefined;
/** "2026-11-27" → "27 Nov 2026". */
export function expiryLong(date: string): string {
  longDate ??= new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  return longDate.format(new Date(`${date}T00:00:00Z`));
}

/** The underlying's ticker from an OCC option symbol: AAPL261127P00220000 → AAPL. */
export function underlyingOf(optionIdentifier: string): string {
  const match = /^([A-Z0-9.]{1,6}?)\d{6}[CP]\d{8}$/.exec(optionIdentifier.replace(/\s+/g, ""));
  return match ? match[1]! : optionIdentifier;
}

/** "one" → "1st buy level". */
export const BUY_LEVEL_LABEL: Record<"one" | "two" | "three" | "four", string> = {
  one: "1st buy level",
  two: "2nd buy level",
  three: "3rd buy level",
  four: "4th buy level",
};

const SHARES_PER_CONTRACT = 100;
const dollars = (value: number) => `$${formatPrice(Math.abs(value))}`;

interface GreekInput {
  ticker: string;
  delta: number;
  /** Risk-neutral N(−d2), when known. */
  assignment?: number | null;
  theta: number;
  vega: number;
}

interface GreekExplanation {
  name: "Delta" | "Theta" | "Vega";
  value: string;
  text: string;
}

/**
 * Delta, Theta and Vega in plain words with this option's values, for the seller of one put
 * (theta per calendar day and vega per volatility point, as the provider quotes them).
 */
export function explainGreeks({ ticker, delta, theta, vega, assignment }: GreekInput): GreekExplanation[] {
  const move = Math.abs(delta);
  return [
    {
      name: "Delta",
      value: formatGreek(delta),
      text:
        `For every $1 ${ticker} moves, this put moves about ${dollars(move)} the other way ` +
        `(${dollars(move * SHARES_PER_CONTRACT)} a contract): it gains when ${ticker} falls. ` +
        `Traders read |delta| (${formatPercent(move, 0)}) as a rough chance of being assigned; it understates it` +
        (assignment === null || assignment === undefined
          ? "."
          : `: the risk-neutral chance of ending below the strike, N(−d2), is ${formatPercent(assignment, 0)}.`),
    },
    {
      name: "Theta",
      value: formatGreek(theta),
      text:
        `Time decay: with nothing else changing, the put loses about ${dollars(theta)} of value a day ` +
        `(${dollars(theta * SHARES_PER_CONTRACT)} a contract). As the seller, that decay is what you earn.`,
    },
    {
      name: "Vega",
      value: formatGreek(vega),
      text:
        `If implied volatility rises by one percentage point, the put gains about ${dollars(vega)} ` +
        `(${dollars(vega * SHARES_PER_CONTRACT)} a contract), which works against you as the seller; ` +
        `a fall in volatility works for you.`,
    },
  ];
}

/**
 * Where an option's figures came from and how old they are, as the stock rows say it
 * ("simulated · 3 minutes ago"; docs/product.md#states-option-card). Rows stored before the source
 * was kept say they do not know it.
 */
export function quoteProvenance(
  o: { market_source: string | null; quoted_at: string | null },
  now: Date = new Date(),
): string {
  return `${o.market_source ?? "source not recorded"} · ${o.quoted_at ? formatAge(o.quoted_at, now) : "time not recorded"}`;
}

/** The premium's label: the bid, or with the market closed the last trade standing in for it (ADR 0030). */
export const premiumLabel = (bidSource: "quote" | "last") =>
  bidSource === "last" ? "Premium (last trade)" : "Premium (bid)";

/** Said beside a premium taken from the last trade. */
export const LAST_TRADE_NOTE = "Last trade, not a live bid: the market is closed and nobody quotes a bid";

/** Who gave a chain's dividend yield and rate, by the run's market source (provider/market/rates.ts). */
const PRICING_SOURCE: Record<string, string> = {
  simulated: "the simulated market",
  yahoo: "Yahoo Finance",
  tradier: "Tradier",
};

/**
 * The inputs an option was priced with besides its IV (issue 46): the dividend yield and the T-bill
 * rate, both continuous and annual, and where they came from. A trader assuming no dividend is off
 * by up to half a dollar a share on a high-yield stock.
 */
export function pricingInputs(o: { dividend_yield?: number | null; rate: number; market_source: string | null }): {
  dividendYield: string;
  rate: string;
  source: string;
} {
  return {
    dividendYield:
      o.dividend_yield === null || o.dividend_yield === undefined ? "not recorded" : formatPercent(o.dividend_yield, 2),
    rate: formatPercent(o.rate, 2),
    source: o.market_source ? (PRICING_SOURCE[o.market_source] ?? o.market_source) : "a source not recorded",
  };
}
