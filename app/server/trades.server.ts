import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { ImportPreview, Journal, TradeInput } from "#contract/entities.ts";
import { fieldOfTradeRefusal } from "#contract/trade-refusals.ts";
import { filterTrades, periodStart, readFilters } from "#app/lib/trade-journal.ts";
import {
  IMPORT_FILE_MAX_BYTES,
  prefillFromSearch,
  TRADE_FORMS,
  tradeDefaults,
  utcInstant,
  type TradeFormKind,
} from "#app/lib/trade-fields.ts";
import { OptionTradeSchema, StockTradeSchema, type OptionTrade, type StockTrade } from "#app/lib/trade-schemas.ts";
import { ImportFormSchema } from "#app/lib/trade-import-schema.ts";
import { intentOf } from "#app/lib/intents.ts";
import { TRADE_INTENTS, type TradeIntent } from "#app/lib/trade-intents.ts";
import { requireUser, userCall } from "./auth.server.ts";
import { ProviderError } from "./provider.server.ts";
import { redirectWithToast } from "./toast.server.ts";
import { readForm } from "./form-body.server.ts";

/** The wheel journal's screens: the Trades list, Add Trade, import and export (README "The wheel journal"). */

type Context = Readonly<RouterContextProvider>;

/**
 * The journal screens' toasts (docs/product.md#screens-trades-screen, #screens-add-trade-forms,
 * #screens-import-trades), spelled once. Server-only: no page's first load carries them.
 */
export const JOURNAL_TEXT = {
  saved: (trade: string, withExit: boolean) => `Trade saved: ${trade}${withExit ? " and its exit" : ""}`,
  exitNotSaved: (reason: string) => `The entry was saved; the exit was not: ${reason}`,
  deleted: "Trade deleted",
  unknownAction: "Unknown action",
  imported: (added: number, duplicates: number, refused: number) =>
    `Imported ${added} ${added === 1 ? "trade" : "trades"}; ${duplicates} already in the journal, ${refused} refused`,
} as const;

const instrumentOf = (row: Journal["rows"][number]) => (row.option_type === null ? "stocks" : "options");

/** The Trades screen: the period's rows of the chosen instrument, with positions, cycles and figures. */
export async function loadJournal(request: Request, context: Context) {
  requireUser(context);
  const filters = readFilters(new URL(request.url).searchParams);
  const now = new Date();
  const from = periodStart(filters.period, now);
  const journal = await userCall(context, calls.getJournal, { query: { from: from?.toISOString() } });
  const rows = filterTrades(
    journal.rows.map((row) => ({ ...row, instrument: instrumentOf(row), openedAt: row.traded_at })),
    filters,
    now,
  );
  const closed = rows.filter((r) => r.realised_pnl !== null);
  const netPnl = Math.round(closed.reduce((sum, r) => sum + (r.realised_pnl ?? 0), 0) * 100) / 100;
  return { filters, journal, rows, closedCount: closed.length, netPnl };
}

/** The Add Trade screen: which form is open and what it starts with (a recommendation's values included). */
export function loadAddTrade(request: Request, context: Context) {
  requireUser(context);
  const search = new URL(request.url).searchParams;
  const prefill = prefillFromSearch(search);
  const asked = search.get("form");
  // "Record this trade" links carry the option's values and no form: they open the options form.
  const kind: TradeFormKind | null =
    TRADE_FORMS.find((k) => k === asked) ?? (Object.keys(prefill).length > 0 ? "options" : null);
  return { kind, defaultValue: kind ? { ...tradeDefaults(kind, new Date()), ...prefill } : {} };
}

/** The provider trades a stock form stands for: the entry, and the closing trade when an exit is filled. */
function stockTrades(draft: StockTrade): TradeInput[] {
  const journal = {
    portfolio: draft.portfolio,
    strategy: draft.strategy ?? null,
    notes: draft.notes ?? null,
    confidence: draft.confidence,
  };
  const entry: TradeInput = {
    kind: draft.type === "buy" ? "stock_buy" : "stock_sell",
    ticker: draft.symbol,
    quantity: draft.quantity,
    price: draft.entryPrice,
    fees: draft.entryFee,
    traded_at: utcInstant(draft.entryDate),
    ...journal,
  };
  if (draft.closingPrice === undefined || !draft.exitDate) return [entry];
  return [
    entry,
    {
      ...entry,
      kind: draft.type === "buy" ? "stock_sell" : "stock_buy",
      price: draft.closingPrice,
      fees: draft.exitFee ?? 0,
      traded_at: utcInstant(draft.exitDate),
    },
  ];
}

/** The provider trades an options form stands for: the trade, and its buy-to-close when an exit is filled. */
function optionTrades(draft: OptionTrade): TradeInput[] {
  const entry: TradeInput = {
    kind: draft.action,
    ticker: draft.symbol,
    option_type: draft.optionType,
    strike: draft.strike,
    expiry: draft.expiry,
    quantity: draft.quantity,
    price: draft.entryPrice,
    fees: draft.entryFee,
    traded_at: utcInstant(draft.entryDate),
    portfolio: draft.portfolio,
    strategy: draft.strategy ?? null,
    notes: draft.notes ?? null,
    confidence: draft.confidence,
  };
  if (draft.closingPrice === undefined || !draft.exitDate) return [entry];
  return [
    entry,
    {
      ...entry,
      kind: "buy_to_close",
      price: draft.closingPrice,
      fees: draft.exitFee ?? 0,
      traded_at: utcInstant(draft.exitDate),
    },
  ];
}

const described = (trade: TradeInput) =>
  trade.option_type ? `${trade.ticker} ${trade.strike} ${trade.option_type}` : `${trade.ticker} shares`;

/** Add Trade's action: validate with the form's schema, store each trade, back to the journal. */
export async function addTradeAction(request: Request, context: Context) {
  requireUser(context);
  const formData = await readForm(request);
  const intent: TradeIntent | null = intentOf(formData, TRADE_INTENTS);
  let submission;
  let trades: TradeInput[];
  switch (intent) {
    case "save-stock": {
      const parsed = parseWithZod(formData, { schema: StockTradeSchema });
      if (parsed.status !== "success") return data({ result: parsed.reply() }, { status: 400 });
      submission = parsed;
      trades = stockTrades(parsed.value);
      break;
    }
    case "save-option": {
      const parsed = parseWithZod(formData, { schema: OptionTradeSchema });
      if (parsed.status !== "success") return data({ result: parsed.reply() }, { status: 400 });
      submission = parsed;
      trades = optionTrades(parsed.value);
      break;
    }
    default:
      return data({ result: undefined }, { status: 400 });
  }
  let saved = 0;
  try {
    for (const trade of trades) {
      await userCall(context, calls.addTrade, { body: trade });
      saved += 1;
    }
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status === 0 || error.status >= 500) throw error;
    // The provider's reason (e.g. no open put to assign) stays with every typed value; a reason about
    // one field (a Saturday expiry, a strike off the chain, a call beyond the shares) goes beside it.
    const reason = error.detail ?? error.message;
    const field = saved > 0 ? null : fieldOfTradeRefusal(reason);
    const text = saved > 0 ? JOURNAL_TEXT.exitNotSaved(reason) : reason;
    const reply = field ? { fieldErrors: { [field]: [text] } } : { formErrors: [text] };
    return data({ result: submission.reply(reply) }, { status: error.status });
  }
  return redirectWithToast("/portfolio?period=all", {
    type: "success",
    text: JOURNAL_TEXT.saved(described(trades[0]!), trades.length > 1),
  });
}

/** The Trades screen's action: delete a trade. */
export async function journalAction(request: Request, context: Context) {
  requireUser(context);
  const formData = await readForm(request);
  const back = `/portfolio${new URL(request.url).search}`;
  if (intentOf(formData, TRADE_INTENTS) !== "delete")
    return redirectWithToast(back, { type: "error", text: JOURNAL_TEXT.unknownAction });
  const id = Number(formData.get("id"));
  try {
    await userCall(context, calls.deleteTrade, { params: { id } });
    return redirectWithToast(back, { type: "success", text: JOURNAL_TEXT.deleted });
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status === 0 || error.status >= 500) throw error;
    return redirectWithToast(back, { type: "warning", text: error.detail ?? error.message });
  }
}

interface ImportState {
  broker: string;
  csv: string;
  preview: ImportPreview | null;
  errors: Record<string, string[]>;
  /** The opening positions' prices as typed, by key (field `opening:<key>`; ADR 0074). */
  openings?: Record<string, string>;
}

const OPENING_FIELD = "opening:";

/** The opening prices typed in the preview: numbers by key, and the keys whose text is not a price. */
function openingPricesOf(formData: FormData) {
  const typed: Record<string, string> = {};
  const prices: Record<string, number> = {};
  const bad: string[] = [];
  for (const [name, value] of formData) {
    if (!name.startsWith(OPENING_FIELD) || typeof value !== "string" || value.trim() === "") continue;
    const key = name.slice(OPENING_FIELD.length);
    typed[key] = value;
    const price = Number(value.trim().replace(/^\$/, ""));
    if (Number.isFinite(price) && price >= 0) prices[key] = price;
    else bad.push(key);
  }
  return { typed, prices, bad };
}

/** Import: the preview of a broker file, then the import of what it showed. */
export async function importAction(request: Request, context: Context) {
  requireUser(context);
  const formData = await readForm(request);
  const intent: TradeIntent | null = intentOf(formData, TRADE_INTENTS);
  const file = formData.get("file");
  let csv = typeof formData.get("csv") === "string" ? String(formData.get("csv")) : "";
  if (file instanceof File && file.size > 0) {
    if (file.size > IMPORT_FILE_MAX_BYTES) {
      return data<ImportState>(
        {
          broker: String(formData.get("broker") ?? ""),
          csv: "",
          preview: null,
          errors: { file: ["The file is larger than 1 MB"] },
        },
        { status: 400 },
      );
    }
    csv = await file.text();
  }
  const parsed = ImportFormSchema.safeParse({ broker: formData.get("broker"), csv });
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? "file")] ??= []).push(issue.message);
    if (errors.csv) errors.file = errors.csv;
    return data<ImportState>(
      { broker: String(formData.get("broker") ?? ""), csv: "", preview: null, errors },
      { status: 400 },
    );
  }
  const openings = openingPricesOf(formData);
  const body = { ...parsed.data, openings: openings.prices };
  try {
    if (openings.bad.length > 0) {
      // A price that is not a number: the preview again without it, the text kept with its error.
      const preview = await userCall(context, calls.previewImport, { body });
      const errors = Object.fromEntries(
        openings.bad.map((key) => [`${OPENING_FIELD}${key}`, ["Enter a price of at least 0, like 2.10"]]),
      );
      return data<ImportState>({ ...body, preview, errors, openings: openings.typed }, { status: 400 });
    }
    if (intent === "import") {
      const result = await userCall(context, calls.importTrades, { body });
      return redirectWithToast("/portfolio?period=all", {
        type: "success",
        text: JOURNAL_TEXT.imported(result.added.length, result.duplicates.length, result.refused.length),
      });
    }
    const preview = await userCall(context, calls.previewImport, { body });
    return data<ImportState>({ ...body, preview, errors: {}, openings: openings.typed });
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status === 0 || error.status >= 500) throw error;
    return data<ImportState>(
      { ...body, csv: "", preview: null, errors: { file: [error.detail ?? error.message] }, openings: openings.typed },
      { status: error.status },
    );
  }
}

/** The journal as a CSV download. */
export async function exportJournal(context: Context) {
  requireUser(context);
  const stream = await userCall(context, calls.exportTrades);
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="putseller-trades.csv"',
      "cache-control": "no-store",
    },
  });
}
