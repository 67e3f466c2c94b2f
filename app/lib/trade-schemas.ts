import { z } from "zod";
import { sanitizeTicker } from "./input-sanitizers.ts";
import { RECORD_TRADE_PARAM } from "./record-trade.ts";

/**
 * The Add Trade forms: one for shares, one for options. Each is one schema, run by Conform in the
 * browser and by the /add-trade action, then turned into the provider's trades
 * (app/server/trades.server.ts). Dates and times are UTC, as the form says.
 */

/** The default trade portfolio. */
export const DEFAULT_PORTFOLIO = "Default Portfolio";
/** Price and fee max; quantity max (the provider's bounds). */
const PRICE_MAX = 9_999_999;
const QUANTITY_MAX = 100_000;

export const TRADE_FORMS = ["stocks", "options"] as const;
export type TradeFormKind = (typeof TRADE_FORMS)[number];

export const TRADE_TYPES = [
  { value: "buy", label: "Buy" },
  { value: "sell", label: "Sell" },
] as const;

/** What an options trade was; the wheel's short premium trades. */
export const OPTION_ACTIONS = [
  { value: "sell_to_open", label: "Sell to open" },
  { value: "buy_to_close", label: "Buy to close" },
  { value: "expire", label: "Expired" },
  { value: "assignment", label: "Assigned (put)" },
  { value: "exercise", label: "Called away (call)" },
] as const;

export const OPTION_TYPES = [
  { value: "put", label: "Put" },
  { value: "call", label: "Call" },
] as const;

/** Confidence 0 to 4; the index is the level. */
export const CONFIDENCE_LABELS = ["Very Low", "Low", "Neutral", "High", "Very High"] as const;
const DEFAULT_CONFIDENCE = 2;

const values = <T extends readonly { value: string }[]>(list: T) =>
  list.map((item) => item.value) as unknown as [T[number]["value"], ...T[number]["value"][]];

const grouped = new Intl.NumberFormat("en-US");

/** A required amount between `min` and `max`. Conform turns an empty field into undefined. */
function amount(label: string, max: number, min = 0) {
  return z
    .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) })
    .min(min, min > 0 ? `${label} must be above 0` : `${label} must be at least 0`)
    .max(max, `${label} must be at most ${grouped.format(max)}`);
}
const optionalAmount = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} must be at least 0`)
    .max(max, `${label} must be at most ${grouped.format(max)}`)
    .optional();

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
/** What an <input type="datetime-local"> sends, read as UTC; not later than now. */
const dateTime = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(LOCAL_DATE_TIME, "Enter a date and time")
    .refine((text) => Date.parse(`${text}Z`) <= Date.now(), "A trade cannot be dated in the future");

/** The instant an <input type="datetime-local"> value names, read as UTC. */
export const utcInstant = (local: string) => new Date(`${local}Z`).toISOString();
/** `date` as an <input type="datetime-local"> value in UTC (minutes). */
export const localDateTime = (date: Date) => date.toISOString().slice(0, 16);

const common = {
  portfolio: z
    .string()
    .trim()
    .max(100, "Portfolio is at most 100 characters")
    .transform((name) => name || DEFAULT_PORTFOLIO)
    .default(DEFAULT_PORTFOLIO),
  symbol: z
    .string({ error: "Symbol is required" })
    .transform(sanitizeTicker)
    .pipe(z.string().min(1, "Symbol is required").max(10, "Symbol is at most 10 characters")),
  entryFee: amount("Fees", PRICE_MAX),
  entryDate: dateTime("Date and time"),
  // Exit: filled only to record the closing trade too.
  closingPrice: optionalAmount("Closing price", PRICE_MAX),
  exitFee: optionalAmount("Exit fees", PRICE_MAX),
  exitDate: z
    .string()
    .regex(LOCAL_DATE_TIME, "Enter a date and time")
    .refine((text) => Date.parse(`${text}Z`) <= Date.now(), "A trade cannot be dated in the future")
    .optional(),
  // Journal
  strategy: z.string().trim().max(100, "Strategy is at most 100 characters").optional(),
  notes: z.string().max(2000, "Notes are at most 2,000 characters").optional(),
  confidence: z
    .number({ error: "Choose a confidence level" })
    .int("Choose a confidence level")
    .min(0, "Choose a confidence level")
    .max(CONFIDENCE_LABELS.length - 1, "Choose a confidence level")
    .default(DEFAULT_CONFIDENCE),
};

/** An exit needs its date, after the entry; without a closing price the exit fields stay empty. */
function checkExit(
  draft: { closingPrice?: number | undefined; exitDate?: string | undefined; entryDate: string },
  ctx: z.RefinementCtx,
) {
  if (draft.closingPrice === undefined) {
    if (draft.exitDate) ctx.addIssue({ code: "custom", path: ["closingPrice"], message: "Closing price is required" });
    return;
  }
  if (!draft.exitDate) ctx.addIssue({ code: "custom", path: ["exitDate"], message: "Exit date and time is required" });
  else if (Date.parse(`${draft.exitDate}Z`) < Date.parse(`${draft.entryDate}Z`)) {
    ctx.addIssue({ code: "custom", path: ["exitDate"], message: "The exit cannot come before the entry" });
  }
}

export const StockTradeSchema = z
  .object({
    portfolio: common.portfolio,
    type: z.enum(values(TRADE_TYPES), { error: "Choose buy or sell" }).default("buy"),
    symbol: common.symbol,
    entryPrice: amount("Price", PRICE_MAX),
    quantity: amount("Shares", QUANTITY_MAX, Number.MIN_VALUE),
    entryFee: common.entryFee,
    entryDate: common.entryDate,
    closingPrice: common.closingPrice,
    exitFee: common.exitFee,
    exitDate: common.exitDate,
    strategy: common.strategy,
    notes: common.notes,
    confidence: common.confidence,
  })
  .superRefine(checkExit);

export const OptionTradeSchema = z
  .object({
    portfolio: common.portfolio,
    action: z.enum(values(OPTION_ACTIONS), { error: "Choose what happened" }).default("sell_to_open"),
    symbol: common.symbol,
    optionType: z.enum(values(OPTION_TYPES), { error: "Choose put or call" }).default("put"),
    strike: amount("Strike", PRICE_MAX, Number.MIN_VALUE),
    expiry: z.string({ error: "Expiry is required" }).regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date"),
    quantity: amount("Contracts", QUANTITY_MAX, 1).int("Contracts must be a whole number"),
    entryPrice: amount("Premium", PRICE_MAX),
    entryFee: common.entryFee,
    entryDate: common.entryDate,
    closingPrice: common.closingPrice,
    exitFee: common.exitFee,
    exitDate: common.exitDate,
    strategy: common.strategy,
    notes: common.notes,
    confidence: common.confidence,
  })
  .superRefine((draft, ctx) => {
    checkExit(draft, ctx);
    if (draft.closingPrice !== undefined && draft.action !== "sell_to_open") {
      ctx.addIssue({ code: "custom", path: ["closingPrice"], message: "Only a sell-to-open can be closed here" });
    }
  });

export const TRADE_SCHEMAS = { stocks: StockTradeSchema, options: OptionTradeSchema } as const;

export type StockTrade = z.infer<typeof StockTradeSchema>;
export type OptionTrade = z.infer<typeof OptionTradeSchema>;
type AnyField = keyof StockTrade | keyof OptionTrade;

/** The defaults a new trade starts from; `now` fills the date. */
export function tradeDefaults(kind: TradeFormKind, now: Date): Record<string, string> {
  const base = { portfolio: DEFAULT_PORTFOLIO, confidence: String(DEFAULT_CONFIDENCE), entryDate: localDateTime(now) };
  return kind === "stocks"
    ? { ...base, type: "buy" }
    : { ...base, action: "sell_to_open", optionType: "put", quantity: "1" };
}

/**
 * "Record this trade" from a recommendation: `/add-trade?ticker=KO&strike=50&expiry=2026-12-18&bid=1.25&type=put`
 * opens the options form as a sell-to-open of one contract at the bid. Unusable values are left out.
 */
export function prefillFromSearch(search: URLSearchParams): Record<string, string> {
  const P = RECORD_TRADE_PARAM;
  const out: Record<string, string> = {};
  const ticker = sanitizeTicker(search.get(P.ticker) ?? "");
  if (ticker && ticker.length <= 10) out.symbol = ticker;
  const strike = Number(search.get(P.strike));
  if (search.get(P.strike) && Number.isFinite(strike) && strike > 0 && strike <= PRICE_MAX) out.strike = String(strike);
  const expiry = search.get(P.expiry) ?? "";
  if (/^\d{4}-\d{2}-\d{2}$/.test(expiry) && !Number.isNaN(Date.parse(expiry))) out.expiry = expiry;
  const bid = Number(search.get(P.bid));
  if (search.get(P.bid) && Number.isFinite(bid) && bid >= 0 && bid <= PRICE_MAX) out.entryPrice = String(bid);
  const type = search.get(P.type);
  if (type === "put" || type === "call") out.optionType = type;
  return out;
}

/** The form's tabs and the fields each holds, in the order they are shown. */
export const TRADE_TABS = {
  stocks: [
    {
      id: "general",
      label: "General",
      fields: ["portfolio", "type", "symbol", "entryPrice", "quantity", "entryFee", "entryDate"],
    },
    { id: "exit", label: "Exit", fields: ["closingPrice", "exitFee", "exitDate"] },
    { id: "journal", label: "Journal", fields: ["strategy", "notes", "confidence"] },
  ],
  options: [
    {
      id: "general",
      label: "General",
      fields: [
        "portfolio",
        "action",
        "symbol",
        "optionType",
        "strike",
        "expiry",
        "quantity",
        "entryPrice",
        "entryFee",
        "entryDate",
      ],
    },
    { id: "exit", label: "Exit", fields: ["closingPrice", "exitFee", "exitDate"] },
    { id: "journal", label: "Journal", fields: ["strategy", "notes", "confidence"] },
  ],
} as const satisfies Record<TradeFormKind, readonly { id: string; label: string; fields: readonly AnyField[] }[]>;

export type TradeTabId = (typeof TRADE_TABS)["stocks"][number]["id"];

/** How many of `fieldsWithErrors` sit on each tab. */
export function errorsByTab(kind: TradeFormKind, fieldsWithErrors: Iterable<string>): Record<TradeTabId, number> {
  const names = new Set(fieldsWithErrors);
  const counts = { general: 0, exit: 0, journal: 0 };
  for (const tab of TRADE_TABS[kind]) counts[tab.id] = tab.fields.filter((field) => names.has(field)).length;
  return counts;
}

/** The first tab, in display order, that holds an error; with the first such field. */
export function firstTabWithErrors(
  kind: TradeFormKind,
  fieldsWithErrors: Iterable<string>,
): { tab: TradeTabId; field: string } | null {
  const names = new Set(fieldsWithErrors);
  for (const tab of TRADE_TABS[kind]) {
    const field = (tab.fields as readonly string[]).find((name) => names.has(name));
    if (field) return { tab: tab.id, field };
  }
  return null;
}
