import { z } from "zod";
import { MarketSource, Timestamp } from "./entities.ts";

/**
 * The market beside the Live dot (docs/product.md#states-market): whether the exchange is open, and
 * when closed, whether the demo market is replaying a session and when the next session opens. Its
 * own module, not entities.ts: the browser bundles entities.ts, and this is read on the server only.
 */
export const MarketStatus = z.object({
  source: MarketSource,
  open: z.boolean(),
  /** The simulated market replaying its latest session while the exchange is closed (ADR 0037). */
  replaying: z.boolean(),
  /** The next regular session's open (NYSE calendar), ISO; null while open. */
  next_open: Timestamp.nullable(),
  /** The market's clock, ISO: the provider's "now" for what is today, expired or in the future (ADR 0091). */
  now: Timestamp,
});
export type MarketStatus = z.infer<typeof MarketStatus>;
