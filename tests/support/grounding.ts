/**
 * Test support: checks that every number written in an explanation is one of the facts it was
 * written from (or a plain rendering of one: rounded, as a percentage of a fraction, without its
 * sign), and that no number was made up along the way.
 */

/** Number tokens of a text as written, thousands separators dropped; digits inside symbols (AAPL261218P…) are not numbers. */
export function numbersIn(text: string): string[] {
  return (text.match(/(?<![A-Za-z\d.,])\d+(?:,\d{3})*(?:\.\d+)?/g) ?? []).map((t) => t.replace(/,/g, ""));
}

const fixed = [0, 1, 2].map(
  (digits) =>
    new Intl.NumberFormat("en-US", {
      useGrouping: false,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }),
);

/**
 * Every way a fact may be written: 0–2 decimals (rounded either as binary toFixed or as decimal
 * Intl does it), its size, ×100 as a percentage; digit groups of dates. Small integers are
 * renderings of many facts, so the check is strict for figures and weak for single digits.
 */
export function renderingsOf(facts: unknown): Set<string> {
  const allowed = new Set<string>();
  const visit = (value: unknown) => {
    if (typeof value === "number" && Number.isFinite(value)) {
      for (const x of [value, Math.abs(value), value * 100, Math.abs(value * 100)]) {
        for (const digits of [0, 1, 2]) {
          allowed.add(x.toFixed(digits));
          allowed.add(fixed[digits]!.format(x));
        }
      }
    } else if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) {
      for (const group of value.match(/\d+/g) ?? []) {
        allowed.add(group);
        allowed.add(String(Number(group)));
      }
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(facts);
  return allowed;
}

/** The numbers of `text` that no fact accounts for (empty when the text is grounded). */
export function ungroundedNumbers(text: string, facts: unknown): string[] {
  const allowed = renderingsOf(facts);
  return numbersIn(text).filter((n) => !allowed.has(n));
}
