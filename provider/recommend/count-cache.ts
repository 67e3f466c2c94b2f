/**
 * How many puts of an active run a reader's filters let through, remembered per run, filters and
 * the conservative value they are held against (docs/decisions/0086-top-line-counts-remembered-per-run.md).
 * A run's pool rows are written once and never changed (ADR 0040), so an entry never goes stale:
 * a new run has a new id, new levels or filters a new key. The oldest entries go first past `maxEntries`.
 */
export interface CountCache {
  get(key: string): number | undefined;
  set(key: string, count: number): void;
  readonly size: number;
}

export function createCountCache(maxEntries: number): CountCache {
  const entries = new Map<string, number>();
  return {
    get(key) {
      const count = entries.get(key);
      if (count !== undefined) {
        // Most recently used last, so the eviction below drops the least recently used.
        entries.delete(key);
        entries.set(key, count);
      }
      return count;
    },
    set(key, count) {
      entries.delete(key);
      entries.set(key, count);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
}
