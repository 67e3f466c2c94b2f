import { z } from "zod";
import { localDateTime } from "./trade-fields.ts";

/** The roll screen's actions (its form's `intent` and its action's `switch`). */
export const ROLL_INTENTS = ["record-roll"] as const;
export type RollIntent = (typeof ROLL_INTENTS)[number];

const PRICE_MAX = 9_999_999;
const amount = (label: string, min = 0) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) })
    .min(min, min > 0 ? `${label} must be above 0` : `${label} must be at least 0`)
    .max(PRICE_MAX, `${label} must be at most 9,999,999`);

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * "Record this roll": buy the open put back and sell the new one, at one moment (read as UTC).
 * Prices per share; fees in dollars for the whole trade.
 */
export const RollFormSchema = z.object({
  contracts: amount("Contracts", 1).int("Contracts must be a whole number"),
  closePrice: amount("Buy-back price"),
  closeFees: amount("Buy-back fees"),
  strike: amount("New strike", Number.MIN_VALUE),
  expiry: z.string({ error: "New expiry is required" }).regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date"),
  openPrice: amount("New premium"),
  openFees: amount("New put's fees"),
  tradedAt: z
    .string({ error: "Date and time is required" })
    .regex(LOCAL_DATE_TIME, "Enter a date and time")
    .refine((text) => Date.parse(`${text}Z`) <= Date.now(), "A trade cannot be dated in the future"),
});

/** The form's starting values: the candidate at its bid, the open put at its ask, one commission on each trade. */
export function rollDefaults(p: {
  contracts: number;
  closeAsk: number;
  commission: number;
  strike: number | null;
  expiry: string | null;
  bid: number | null;
  now: Date;
}): Record<string, string> {
  const fees = String(Math.round(p.commission * p.contracts * 100) / 100);
  return {
    contracts: String(p.contracts),
    closePrice: String(p.closeAsk),
    closeFees: fees,
    ...(p.strike === null ? {} : { strike: String(p.strike) }),
    ...(p.expiry === null ? {} : { expiry: p.expiry }),
    ...(p.bid === null ? {} : { openPrice: String(p.bid) }),
    openFees: fees,
    tradedAt: localDateTime(p.now),
  };
}
