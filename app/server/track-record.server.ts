import * as calls from "#contract/calls.ts";
import type { LandingStats, TrackRecord } from "#contract/track-record.ts";
import { callProvider } from "./provider.server.ts";

/** The landing page waits this long for its figures, then shows the page without them. */
const LANDING_STATS_WAIT_MS = 2_000;

/** The public track record (the provider keeps it for half a minute). */
export function loadTrackRecord(): Promise<TrackRecord> {
  return callProvider(calls.trackRecord);
}

/**
 * The landing page's measured figures, or null when the provider does not answer quickly: the
 * anonymous landing page must open whatever the provider is doing.
 */
export async function loadLandingStats(): Promise<LandingStats | null> {
  try {
    return await callProvider(calls.landingStats, { signal: AbortSignal.timeout(LANDING_STATS_WAIT_MS) });
  } catch (error) {
    console.warn(`[landing] no statistics: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
