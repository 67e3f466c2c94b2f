import type { Plan } from "#contract/plan.ts";

/** The Plan screen's wording (docs/product.md#screens-plan), pure so its worked examples are tested. */

/** Whole dollars as such, else with cents ("$40,000", "$678.70", "−$7,280"). */
export function money(n: number): string {
  const digits = Number.isInteger(Math.round(n * 100) / 100) ? 0 : 2;
  const text = Math.abs(n).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${n < 0 ? "−" : ""}$${text}`;
}
export const pctOf = (share: number | null) => (share === null ? "—" : `${Math.round(share * 100)} %`);

const ORDINAL = { one: "1st", two: "2nd", three: "3rd", four: "4th" } as const;

/** "AAPL 200 × 2 = your 2nd buy level, 6 % under your conservative value". */
export function putAgainstLevels(put: Plan["puts"][number]): string {
  const head = `${put.ticker} ${put.strike} × ${put.contracts}`;
  const parts: string[] = [];
  if (put.buy_level) parts.push(`your ${ORDINAL[put.buy_level]} buy level`);
  if (put.vs_conservative !== null) {
    const off = Math.round(Math.abs(put.vs_conservative) * 100);
    parts.push(
      off === 0
        ? "at your conservative value"
        : `${off} % ${put.vs_conservative < 0 ? "under" : "over"} your conservative value`,
    );
  }
  if (parts.length === 0) return `${head}: no buy level or conservative value of yours to compare`;
  return `${head} = ${parts.join(", ")}`;
}

/** "Market 10 % lower at each expiry" / "Market 5 % higher …". */
export function scenarioTitle(move: number): string {
  const n = Math.round(Math.abs(move) * 1000) / 10;
  if (n === 0) return "Market unchanged at each expiry";
  return `Market ${n} % ${move < 0 ? "lower" : "higher"} at each expiry`;
}
