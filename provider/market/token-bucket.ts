/**
 * A token bucket that keeps requests under a vendor's rate limit: `capacity` requests at once,
 * refilled evenly over `perMs`. The vendor's own count (its rate-limit headers) can empty it early.
 */
export interface TokenBucket {
  /** Takes a token: 0 when one was free, else the ms until one will be (nothing taken). */
  take(): number;
  /** The vendor says none are left until `until` (ms since epoch). */
  exhaust(until: number): void;
}

export function createTokenBucket(capacity: number, perMs: number, now: () => number = Date.now): TokenBucket {
  let tokens = capacity;
  let updated = now();
  let blockedUntil = 0;
  const refill = () => {
    const t = now();
    tokens = Math.min(capacity, tokens + ((t - updated) * capacity) / perMs);
    updated = t;
    return t;
  };
  return {
    take() {
      const t = refill();
      if (t < blockedUntil) return blockedUntil - t;
      if (tokens >= 1) {
        tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil(((1 - tokens) * perMs) / capacity - 1e-9));
    },
    exhaust(until) {
      refill();
      tokens = 0;
      blockedUntil = Math.max(blockedUntil, until);
    },
  };
}
