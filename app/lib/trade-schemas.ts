import { z } from "zod";
import { sanitizeTicker } from "./input-sanitizers.ts";

/**
 * The trade draft of SPEC.md §3 with the statuses of §4, the trade form rules of §5 and the
 * bounds of §9. One schema, run by Conform in the browser and by the /add-trade action.
 */

/** SPEC.md §9: the default trade portfolio. */
export const DEFAULT_PORTFOLIO = "Default Portfolio";
/** SPEC.md §9: price and fee max; quantity max. */
export const PRICE_MAX = 9_999_999;
export const QUANTITY_MAX = 100_000;

export const TRADE_TYPES = [
  { value: "buy", label: "Buy" },
  { value: "sell", label: "Sell" },
] as const;

/** SPEC.md §4: entry status Filled or Pending (default Filled). */
export const ENTRY_STATUSES = [
  { value: "filled", label: "Filled" },
  { value: "pending", label: "Pending" },
] as const;

/** SPEC.md §4: exit status TP Hit, SL Hit or Closed (default Closed). */
export const EXIT_STATUSES = [
  { value: "tp_hit", label: "TP Hit" },
  { value: "sl_hit", label: "SL Hit" },
  { value: "closed", label: "Closed" },
] as const;

/** SPEC.md §4: confidence 0 to 4; the index is the level. */
export const CONFIDENCE_LABELS = ["Very Low", "Low", "Neutral", "High", "Very High"] as const;
export const DEFAULT_CONFIDENCE = 2;

export type TradeType = (typeof TRADE_TYPES)[number]["value"];
export type EntryStatus = (typeof ENTRY_STATUSES)[number]["value"];
export type ExitStatus = (typeof EXIT_STATUSES)[number]["value"];

const values = <T extends readonly { value: string }[]>(list: T) =>
  list.map((item) => item.value) as unknown as [T[number]["value"], ...T[number]["value"][]];

const grouped = new Intl.NumberFormat("en-US");

/** A required amount between 0 and `max` (SPEC.md §5). Conform turns an empty field into undefined. */
function amount(label: string, max: number) {
  return z
    .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) })
    .min(0, `${label} must be at least 0`)
    .max(max, `${label} must be at most ${grouped.format(max)}`);
}

/** What an <input type="datetime-local"> sends: 2026-11-21T09:30, seconds optional. */
const localDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/, "Enter a date and time")
  .optional();

export const TradeDraftSchema = z.object({
  // General
  portfolio: z
    .string()
    .trim()
    .transform((name) => name || DEFAULT_PORTFOLIO)
    .default(DEFAULT_PORTFOLIO),
  type: z.enum(values(TRADE_TYPES), { error: "Choose buy or sell" }).default("buy"),
  symbol: z.string().transform(sanitizeTicker).optional(),
  entryPrice: amount("Entry price", PRICE_MAX),
  quantity: amount("Quantity", QUANTITY_MAX),
  entryFee: amount("Entry fee", PRICE_MAX),
  entryStatus: z.enum(values(ENTRY_STATUSES), { error: "Choose Filled or Pending" }).default("filled"),
  entryDate: localDateTime,
  // Exit
  closingPrice: amount("Closing price", PRICE_MAX),
  exitFee: amount("Exit fee", PRICE_MAX),
  exitStatus: z.enum(values(EXIT_STATUSES), { error: "Choose TP Hit, SL Hit or Closed" }).default("closed"),
  exitDate: localDateTime,
  // Journal
  strategy: z.string().trim().optional(),
  notes: z.string().optional(),
  confidence: z
    .number({ error: "Choose a confidence level" })
    .int("Choose a confidence level")
    .min(0, "Choose a confidence level")
    .max(CONFIDENCE_LABELS.length - 1, "Choose a confidence level")
    .default(DEFAULT_CONFIDENCE),
});

export type TradeDraft = z.infer<typeof TradeDraftSchema>;
export type TradeField = keyof TradeDraft;

/** The defaults a new draft starts from (SPEC.md §3, §4). */
export const TRADE_DRAFT_DEFAULTS = {
  portfolio: DEFAULT_PORTFOLIO,
  type: "buy",
  entryStatus: "filled",
  exitStatus: "closed",
  confidence: DEFAULT_CONFIDENCE,
} satisfies Partial<TradeDraft>;

/** The Add Trade modal's tabs and the fields each holds, in the order they are shown. */
export const TRADE_TABS = [
  {
    id: "general",
    label: "General",
    fields: ["portfolio", "type", "symbol", "entryPrice", "quantity", "entryFee", "entryStatus", "entryDate"],
  },
  { id: "exit", label: "Exit", fields: ["closingPrice", "exitFee", "exitStatus", "exitDate"] },
  { id: "journal", label: "Journal", fields: ["strategy", "notes", "confidence"] },
] as const satisfies readonly { id: string; label: string; fields: readonly TradeField[] }[];

export type TradeTabId = (typeof TRADE_TABS)[number]["id"];

/** How many of `fieldsWithErrors` sit on each tab. */
export function errorsByTab(fieldsWithErrors: Iterable<string>): Record<TradeTabId, number> {
  const names = new Set(fieldsWithErrors);
  const counts = { general: 0, exit: 0, journal: 0 };
  for (const tab of TRADE_TABS) counts[tab.id] = tab.fields.filter((field) => names.has(field)).length;
  return counts;
}

/** The first tab, in display order, that holds an error; with the first such field. */
export function firstTabWithErrors(fieldsWithErrors: Iterable<string>): { tab: TradeTabId; field: TradeField } | null {
  const names = new Set(fieldsWithErrors);
  for (const tab of TRADE_TABS) {
    const field = tab.fields.find((name) => names.has(name));
    if (field) return { tab: tab.id, field };
  }
  return null;
}
