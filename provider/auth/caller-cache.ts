import type { EventBus } from "#provider/bus/bus.ts";
import { SESSIONS_CHANNEL } from "#provider/bus/channels.ts";
import type { Caller } from "#provider/http/router.ts";

/**
 * Callers resolved from bearer tokens, kept a few seconds (ADR 0066). Every provider call a page
 * makes authenticates, and the query behind it (the user, the token's sign-out, the permissions)
 * was half a millisecond of a 7 ms watchlist render.
 *
 * A session that ends (sign-out, password reset) drops its user's callers here at once, and in
 * the other processes sharing the database as soon as the bus brings the word. A query that
 * started before the end cannot put its answer back afterwards: each user's entries carry the
 * count of ends seen when their query began. The few seconds bound what a lost bus message
 * could keep.
 */
export interface CallerCache {
  /** The caller of this token, when resolved within the last few seconds and not ended since. */
  get(token: string): Caller | undefined;
  /** What to hand to `set`: taken before the query that resolves the caller. */
  epoch(userId: number): number;
  set(token: string, caller: Caller, epoch: number): void;
  /** Forgets every caller of this user, in every process (the bus carries it to the others). */
  sessionsEnded(userId: number): Promise<void>;
  close(): Promise<void>;
}

export interface CallerCacheOptions {
  bus: EventBus;
  /** How long a resolved caller is kept; 5 s when omitted. */
  ttlMs?: number | undefined;
  /** Entries kept at most (the oldest go first); 10,000 when omitted. */
  maxEntries?: number | undefined;
  now?: () => number;
}

interface Entry {
  caller: Caller;
  until: number;
}

export async function createCallerCache({
  bus,
  ttlMs = 5_000,
  maxEntries = 10_000,
  now = Date.now,
}: CallerCacheOptions): Promise<CallerCache> {
  const entries = new Map<string, Entry>();
  const tokensOf = new Map<number, Set<string>>();
  const ends = new Map<number, number>();

  function forget(userId: number): void {
    ends.set(userId, (ends.get(userId) ?? 0) + 1);
    for (const token of tokensOf.get(userId) ?? []) entries.delete(token);
    tokensOf.delete(userId);
  }
  function drop(token: string, entry: Entry): void {
    entries.delete(token);
    const tokens = tokensOf.get(entry.caller.id);
    tokens?.delete(token);
    if (tokens?.size === 0) tokensOf.delete(entry.caller.id);
  }

  const unsubscribe = await bus.subscribe(SESSIONS_CHANNEL, (message) => {
    const userId = (message as { user_id?: unknown }).user_id;
    if (typeof userId === "number") forget(userId);
  });

  return {
    get(token) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (entry.until > now()) return entry.caller;
      drop(token, entry);
      return undefined;
    },
    epoch: (userId) => ends.get(userId) ?? 0,
    set(token, caller, epoch) {
      if ((ends.get(caller.id) ?? 0) !== epoch) return;
      const previous = entries.get(token);
      if (previous) drop(token, previous);
      while (entries.size >= maxEntries) {
        const [oldest, entry] = entries.entries().next().value!;
        drop(oldest, entry);
      }
      // Never past the token's own expiry.
      entries.set(token, { caller, until: Math.min(now() + ttlMs, caller.expiresAt ?? Infinity) });
      let tokens = tokensOf.get(caller.id);
      if (!tokens) tokensOf.set(caller.id, (tokens = new Set()));
      tokens.add(token);
    },
    async sessionsEnded(userId) {
      forget(userId);
      await bus.publish(SESSIONS_CHANNEL, { user_id: userId });
    },
    close: () => unsubscribe(),
  };
}
