/**
 * The last good answer of each market request, kept so a rate limit or an outage leaves the figures
 * a trader saw on screen, marked with their age, instead of blanks. Unknown tickers and bad
 * requests (4xx other than 429) are not covered: those answers are right as they are.
 */
import { MarketDataError } from "./port.ts";

export interface LastGood {
  /** Runs `fetch`; on a 429 or 503 answers the last good value for `key` (through `mark`) if there is one. */
  <T>(key: string, fetch: () => Promise<T>, mark?: (value: T, fetchedAt: Date, reason: string) => T): Promise<T>;
}

export function createLastGood(now: () => Date, maxEntries = 1000): LastGood {
  const kept = new Map<string, { value: unknown; fetchedAt: Date }>();
  return async <T>(key: string, fetch: () => Promise<T>, mark?: (value: T, fetchedAt: Date, reason: string) => T) => {
    try {
      const value = await fetch();
      kept.delete(key);
      if (kept.size >= maxEntries) kept.delete(kept.keys().next().value!);
      kept.set(key, { value, fetchedAt: now() });
      return value;
    } catch (error) {
      const held = kept.get(key);
      const passing = error instanceof MarketDataError && (error.status === 429 || error.status >= 500);
      if (!held || !passing) throw error;
      const value = held.value as T;
      return mark ? mark(value, held.fetchedAt, error.message) : value;
    }
  };
}

/** Marks a quote or chain as a kept answer: its own time stays, the fetch time and the reason are added. */
export const markLastGood = <T extends object>(value: T, fetchedAt: Date, reason: string): T => ({
  ...value,
  lastGood: { fetchedAt, reason },
});
