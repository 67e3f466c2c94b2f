/**
 * Expiry resolves itself (docs/decisions/0078): the leader resolves the short options past their
 * expiry day's close every `intervalMs`. Each run is cheap when nothing expired (one grouped query),
 * and each position is resolved once whoever runs it (provider/journal/expiry-resolution.ts).
 */
import type { ProviderContext } from "#provider/context.ts";
import { resolveExpiries } from "#provider/journal/expiry-resolution.ts";
import type { Job } from "./scheduler.ts";

export const EXPIRY_JOB = "expiries";
/** Every ten minutes: an expiry is recorded within minutes of the close the market's bars report. */
export const EXPIRY_INTERVAL_MS = 10 * 60_000;

export function expiryResolutionJob(
  context: Pick<ProviderContext, "db" | "market" | "push">,
  options: { intervalMs: number },
): Job {
  return {
    name: EXPIRY_JOB,
    intervalMs: options.intervalMs,
    async run(signal) {
      await resolveExpiries(context, { signal });
    },
  };
}
