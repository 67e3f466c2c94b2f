/**
 * The shell's market line (docs/product.md#states-market): the provider's market status, kept for
 * CACHE_MS so the pages of one half-minute share one call, and made into the text beside the Live
 * dot. A provider out of reach leaves the line out rather than failing the page.
 */
import * as calls from "#contract/calls.ts";
import type { MarketStatus } from "#contract/market-status.ts";
import { marketNote } from "./market-note.ts";
import { callProvider } from "#app/server/provider.server.ts";

const CACHE_MS = 30_000;
const WAIT_MS = 2_000;
let held: { at: number; status: MarketStatus } | null = null;

export async function shellMarketNote(now = Date.now()): Promise<string | null> {
  if (!held || now - held.at > CACHE_MS) {
    try {
      held = { at: now, status: await callProvider(calls.marketStatus, { signal: AbortSignal.timeout(WAIT_MS) }) };
    } catch {
      return held ? marketNote(held.status) : null;
    }
  }
  return marketNote(held.status);
}
