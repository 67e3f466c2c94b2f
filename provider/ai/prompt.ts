/**
 * The chat messages for an OpenAI-compatible model: the same facts the built-in analyst writes
 * from, as JSON, with the instruction to use nothing else.
 */
import type { RecommendationFacts, StockFacts } from "./facts-derive.ts";

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

const SYSTEM = [
  "You explain numbers to a trader who sells cash-secured puts.",
  "Use only the facts in the JSON the user sends. Do not add prices, dates, news, company events or any number that is not in the facts; you may write a fraction as a percentage (0.052 is 5.2%).",
  'When a fact is null or named under "missing", say plainly that it is not available instead of guessing.',
  "Write plain text without Markdown, in short paragraphs, at most about 250 words. End with one line saying this is not financial advice.",
].join(" ");

/** Numbers to 6 significant digits: enough for every figure, without float noise. */
function factsJson(facts: object): string {
  return JSON.stringify(facts, (_key, value: unknown) =>
    typeof value === "number" && Number.isFinite(value) ? Number(value.toPrecision(6)) : value,
  );
}

export function stockAnalysisMessages(facts: StockFacts): ChatMessage[] {
  return [
    { role: "system", content: SYSTEM },
    {
      role: "user",
      content:
        `Analyse ${facts.ticker} (${facts.name}) for a cash-secured put seller: the price against the intrinsic values and buy levels ` +
        `(levelsSource says whose they are: "watchlist" the user's own, "uip" the shared UIP list's, "none" there are none), ` +
        `the UIP category, the recent trend and volatility, upcoming earnings, and the best current put. ` +
        `Fractions are ratios (gap is price / level - 1). Facts:\n${factsJson(facts)}`,
    },
  ];
}

export function recommendationMessages(facts: RecommendationFacts): ChatMessage[] {
  return [
    { role: "system", content: SYSTEM },
    {
      role: "user",
      content:
        `Explain selling this option to a cash-secured put seller: what selling it means, the cash needed, breakeven, ` +
        `return per month and per year, probability of profit, what delta, theta and vega say here, the assignment ` +
        `scenario and the risks. Compare the strike with the intrinsic values and buy levels when given (levelsSource ` +
        `says whose they are). Fractions are ratios. Facts:\n${factsJson(facts)}`,
    },
  ];
}
