import { PRICE_MAX, QUANTITY_MAX, STRIKE_MAX, STRIKE_MIN } from "#contract/trade-bounds.ts";
import { sanitizeTicker } from "./input-sanitizers.ts";
import { RECORD_TRADE_PARAM } from "./record-trade.ts";
import { RESOLVE_ACTIONS, RESOLVE_PARAM } from "./resolve-expiry.ts";

/**
 * The trade forms' choices, defaults and tabs (Add Trade, and Import's brokers), without zod: the
 * pages render with these before the forms' schemas (app/lib/trade-schemas.ts,
 * app/routes/import-trades/import-schema.ts) load (ADR 0051). Dates and times are UTC.
 */

/** The default trade portfolio. */
export const DEFAULT_PORTFOLIO = "Default Portfolio";
/** Price and fee max; quantity max (the provider's bounds, contract/trade-bounds.ts). */
export { PRICE_MAX, QUANTITY_MAX } from "#contract/trade-bounds.ts";

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
export const DEFAULT_CONFIDENCE = 2;

/** The instant an <input type="datetime-local"> value names, read as UTC. */
export const utcInstant = (local: string) => new Date(`${local}Z`).toISOString();
/** `date` as an <input type="datetime-local"> value in UTC (minutes). */
export const localDateTime = (date: Date) => date.toISOString().slice(0, 16);

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
  if (search.get(P.strike) && Number.isFinite(strike) && strike >= STRIKE_MIN && strike <= STRIKE_MAX)
    out.strike = String(strike);
  const expiry = search.get(P.expiry) ?? "";
  if (/^\d{4}-\d{2}-\d{2}$/.test(expiry) && !Number.isNaN(Date.parse(expiry))) out.expiry = expiry;
  const bid = Number(search.get(P.bid));
  if (search.get(P.bid) && Number.isFinite(bid) && bid >= 0 && bid <= PRICE_MAX) out.entryPrice = String(bid);
  const type = search.get(P.type);
  if (type === "put" || type === "call") out.optionType = type;
  // An expired option's resolution (docs/decisions/0078): what happened, at the strike, no price or fees.
  const action = search.get(RESOLVE_PARAM.action);
  if (RESOLVE_ACTIONS.some((a) => a === action)) {
    out.action = action!;
    out.entryPrice = "0";
    out.entryFee = "0";
  }
  const contracts = Number(search.get(RESOLVE_PARAM.contracts));
  if (Number.isInteger(contracts) && contracts >= 1 && contracts <= QUANTITY_MAX) out.quantity = String(contracts);
  const date = search.get(RESOLVE_PARAM.date) ?? "";
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(date) && !Number.isNaN(Date.parse(`${date}Z`))) out.entryDate = date;
  // The contracts the plan allows (ADR 0081): a whole number the journal takes.
  const quantity = Number(search.get(P.quantity));
  if (search.get(P.quantity) && Number.isInteger(quantity) && quantity >= 1 && quantity <= 10_000) {
    out.quantity = String(quantity);
  }
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
} as const satisfies Record<TradeFormKind, readonly { id: string; label: string; fields: readonly string[] }[]>;

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

/** The import form's brokers; the provider takes files under 1 MB (app/routes/import-trades/import-schema.ts). */
export const IMPORT_FILE_MAX_BYTES = 1_000_000;
export const IMPORT_BROKERS = [
  { value: "ibkr", label: "Interactive Brokers (activity statement or Flex Query, CSV)" },
  { value: "tastytrade", label: "tastytrade (transactions or positions, CSV)" },
  { value: "schwab", label: "Schwab (transactions or positions, CSV)" },
  { value: "fidelity", label: "Fidelity (account history, CSV)" },
  { value: "robinhood", label: "Robinhood (account activity report, CSV)" },
  { value: "etrade", label: "E*TRADE (transactions, CSV)" },
  { value: "tdameritrade", label: "TD Ameritrade (transactions, CSV, before the move to Schwab)" },
  { value: "webull", label: "Webull (orders, CSV; expiries and assignments from the close)" },
  { value: "ofx", label: "Any broker's investment statement (OFX or QFX)" },
] as const;
