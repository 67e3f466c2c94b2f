import type { BrokerSnapshotSource } from "./broker-positions.ts";

/**
 * How a broker snapshot's source is named to the trader: in the reconciliation's sentences and a
 * fix's note in the journal (ADR 0094). No zod here: the page's scripts import it.
 */
export const SOURCE_NAMES: Record<BrokerSnapshotSource, string> = {
  tradier: "Tradier",
  ibkr: "Interactive Brokers",
  tastytrade: "tastytrade",
  schwab: "Schwab",
  ofx: "the OFX statement",
};
