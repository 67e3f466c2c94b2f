/**
 * Checking a websocket message against the contract (docs/product.md#states-live: an invalid payload is ignored
 * and logged). Loaded by app/hooks/use-live-updates.ts only when a socket opens, so the zod
 * schemas are not part of a page's first-load JavaScript. A quote's check builds the quote's
 * schemas only (contract/ws-prices.ts); the recommendations' check, which needs the entities, is
 * live-trade-messages.ts.
 */
import type { z } from "zod";
import { StockPriceUpdate } from "#contract/ws-prices.ts";

export type ParsedMessage<T> = { ok: true; message: T } | { ok: false; reason: string };

/** Parses and validates one frame; an invalid one says why (for the log), never throws. */
export function parseMessage<T>(raw: unknown, schema: z.ZodType<T>): ParsedMessage<T> {
  let value: unknown;
  try {
    value = typeof raw === "string" ? JSON.parse(raw) : raw;
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, message: result.data };
  const issue = result.error.issues[0];
  return { ok: false, reason: issue ? `${issue.path.join(".") || "message"}: ${issue.message}` : "invalid" };
}

export const parsePriceMessage = (raw: unknown) => parseMessage(raw, StockPriceUpdate);
