import { z } from "zod";
import {
  BOUND_TEXTS,
  EXPIRY_FIRST,
  EXPIRY_LAST,
  OPTION_TICKER_MAX,
  STRIKE_MAX,
  STRIKE_MIN,
  TICKER_MAX,
  TRADED_FIRST,
} from "#contract/trade-bounds.ts";
import { sanitizeTicker } from "./input-sanitizers.ts";
import {
  CONFIDENCE_LABELS,
  DEFAULT_CONFIDENCE,
  DEFAULT_PORTFOLIO,
  OPTION_ACTIONS,
  OPTION_TYPES,
  PRICE_MAX,
  QUANTITY_MAX,
  type TRADE_TABS,
  TRADE_TYPES,
  type TradeFormKind,
} from "./trade-fields.ts";

/**
 * The Add Trade forms: one for shares, one for options. Each is one schema, run by Conform in the
 * browser and by the /add-trade action, then turned into the provider's trades
 * (app/routes/add-trade/server.ts). Dates and times are UTC, as the form says.
 */

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

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
/** What an <input type="datetime-local"> sends, read as UTC; not later than now, not before TRADED_FIRST. */
const dateTime = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(LOCAL_DATE_TIME, "Enter a date and time")
    .refine((text) => Date.parse(`${text}Z`) <= Date.now(), "A trade cannot be dated in the future")
    .refine((text) => !(Date.parse(`${text}Z`) < Date.parse(`${TRADED_FIRST}T00:00:00Z`)), BOUND_TEXTS.tradedFirst);

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
    .pipe(z.string().min(1, "Symbol is required").max(TICKER_MAX, `Symbol is at most ${TICKER_MAX} characters`)),
  entryFee: amount("Fees", PRICE_MAX),
  entryDate: dateTime("Date and time"),
  // Exit: filled only to record the closing trade too.
  closingPrice: optionalAmount("Closing price", PRICE_MAX),
  exitFee: optionalAmount("Exit fees", PRICE_MAX),
  exitDate: z
    .string()
    .regex(LOCAL_DATE_TIME, "Enter a date and time")
    .refine((text) => Date.parse(`${text}Z`) <= Date.now(), "A trade cannot be dated in the future")
    .refine((text) => !(Date.parse(`${text}Z`) < Date.parse(`${TRADED_FIRST}T00:00:00Z`)), BOUND_TEXTS.tradedFirst)
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
    strike: z
      .number({ error: (issue) => (issue.input === undefined ? "Strike is required" : "Strike must be a number") })
      .min(STRIKE_MIN, BOUND_TEXTS.strike)
      .max(STRIKE_MAX, BOUND_TEXTS.strike),
    expiry: z
      .string({ error: "Expiry is required" })
      .regex(DATE, "Enter a date")
      // A date that is not one already has its error; only a well-formed one is held to the range.
      .refine((date) => !DATE.test(date) || (date >= EXPIRY_FIRST && date <= EXPIRY_LAST), BOUND_TEXTS.expiry),
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
    if (draft.symbol.length > OPTION_TICKER_MAX) {
      ctx.addIssue({ code: "custom", path: ["symbol"], message: BOUND_TEXTS.optionTicker });
    }
    if (draft.closingPrice !== undefined && draft.action !== "sell_to_open") {
      ctx.addIssue({ code: "custom", path: ["closingPrice"], message: "Only a sell-to-open can be closed here" });
    }
  });

export type StockTrade = z.infer<typeof StockTradeSchema>;
export type OptionTrade = z.infer<typeof OptionTradeSchema>;

/**
 * The form's tabs name only these schemas' fields. Checked here, where both are known, so that
 * trade-fields.ts needs no import back from this module (no import cycle, docs/contributing.md).
 */
type TabField = keyof StockTrade | keyof OptionTrade;
type MustHold<T extends true> = T;
type _TabsNameSchemaFields = MustHold<
  typeof TRADE_TABS extends Record<TradeFormKind, readonly { fields: readonly TabField[] }[]> ? true : false
>;
