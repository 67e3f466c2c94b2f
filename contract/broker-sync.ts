import { z } from "zod";
import { Timestamp } from "./timestamp.ts";

/**
 * A broker account connected through its API (issue 43: Tradier), and what a sync did. The access
 * token goes in once and never comes back: no answer carries it, only the account's last four
 * characters (docs/decisions/0075-broker-tokens-encrypted-at-rest.md).
 */

/** Longer than any Tradier access or OAuth token; a bound on what is stored and sent to Tradier. */
const BROKER_TOKEN_MAX = 512;

export const TradierConnectBody = z.object({
  token: z
    .string({ error: "Paste your Tradier access token" })
    .trim()
    .min(1, "Paste your Tradier access token")
    .max(BROKER_TOKEN_MAX, `A Tradier access token is at most ${BROKER_TOKEN_MAX} characters`)
    .regex(/^[\x21-\x7e]+$/, "A Tradier access token has no spaces or special characters"),
});

/** Tradier account numbers: letters and digits (VA12345678; the sandbox's too). */
export const BrokerAccountNumber = z
  .string({ error: "Choose one of your Tradier accounts" })
  .trim()
  .regex(/^[A-Za-z0-9-]{1,40}$/, "Choose one of your Tradier accounts");

export const TradierAccountBody = z.object({ account: BrokerAccountNumber });

/** One account of the token's profile, as the trader picks it. */
export const BrokerAccount = z.object({
  number: BrokerAccountNumber,
  /** "margin", "cash", "pdt"; "" when Tradier does not say. */
  type: z.string().max(40),
  /** "individual", "ira", "entity", …; "" when Tradier does not say. */
  classification: z.string().max(40),
});
export type BrokerAccount = z.infer<typeof BrokerAccount>;

/** A history line the sync did not add, as the trader reads it. */
const SyncRefusal = z.object({
  /** The day Tradier dated it (YYYY-MM-DD). */
  date: z.string(),
  /** What it was: Tradier's own description, e.g. "PUT KO 09/18/26 65". */
  what: z.string(),
  reason: z.string(),
});

/** At most this many refusals are kept with a result (their total is `refused`). */
export const SYNC_REFUSALS_SHOWN = 20;

export const SyncResult = z.object({
  at: Timestamp,
  /** Trades added to the journal by this sync. */
  added: z.number().int().min(0),
  /** History lines a sync added before: left as they are. */
  already: z.number().int().min(0),
  /** History lines that are not trades (deposits, journals, interest, fees on their own). */
  not_trades: z.number().int().min(0),
  /** Trade lines not added, and the first SYNC_REFUSALS_SHOWN of them with their reasons. */
  refused: z.number().int().min(0),
  refusals: z.array(SyncRefusal).max(SYNC_REFUSALS_SHOWN),
  /** Positions open before the history begins (their closing lines are refused until they are entered). */
  openings: z.number().int().min(0),
  /** Positions Tradier says the account holds now (the snapshot the reconciliation reads). */
  positions: z.number().int().min(0),
  /** True when the history had more lines than one sync reads: the oldest were left out. */
  truncated: z.boolean(),
});
export type SyncResult = z.infer<typeof SyncResult>;

export const TradierConnection = z.object({
  broker: z.literal("tradier"),
  /** The chosen account's number shown as ••••1234; null until one is chosen. */
  account: z.string().nullable(),
  /** The token's accounts to choose from when it has several and none is chosen yet. */
  accounts: z.array(BrokerAccount),
  connected_at: Timestamp,
  last_synced_at: Timestamp.nullable(),
  last_result: SyncResult.nullable(),
  /** Why the last sync failed, as the trader reads it; null after one that worked. */
  last_error: z.string().nullable(),
});
export type TradierConnection = z.infer<typeof TradierConnection>;

/** GET's answer: the connection, or null when the trader has none. */
export const TradierConnectionState = z.object({ connection: TradierConnection.nullable() });
export type TradierConnectionState = z.infer<typeof TradierConnectionState>;

/** An account number as every answer shows it: its last four characters. */
export function maskedAccount(number: string): string {
  return `••••${number.slice(-4)}`;
}
