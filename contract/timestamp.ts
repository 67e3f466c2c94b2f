import { z } from "zod";

/**
 * ISO 8601 timestamp with offset, e.g. 2026-11-21T20:38:00.000Z. A module of its own so the
 * browser's check of a live quote (contract/ws-prices.ts) builds this schema and not every entity's.
 */
export const Timestamp = z.string().datetime({ offset: true });
