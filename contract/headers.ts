/**
 * Header names of the wire format, without zod, so the service worker can use them and stay
 * small (contract/calls.ts re-exports them with the calls).
 */

/** Header carrying a client-chosen key so a replayed mutation is applied once (offline queue). */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
