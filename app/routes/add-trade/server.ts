import type { HrefWithSearch } from "#app/lib/href.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { TradeInput } from "#contract/entities.ts";
import { fieldOfTradeRefusal } from "#contract/trade-refusals.ts";
import {
  prefillFromSearch,
  TRADE_FORMS,
  tradeDefaults,
  utcInstant,
  type TradeFormKind,
} from "#app/lib/trade-fields.ts";
import { OptionTradeSchema, StockTradeSchema, type OptionTrade, type StockTrade } from "#app/lib/trade-schemas.ts";
import { intentOf } from "#app/lib/intents.ts";
import { TRADE_INTENTS, type TradeIntent } from "#app/lib/trade-intents.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { callProvider, ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { readForm } from "#app/server/form-body.server.ts";
import { JOURNAL_TEXT } from "#app/server/trades.server.ts";

/** Add Trade's loader and action (docs/product.md#screens-add-trade-forms): its forms, defaults and saving. */

type Context = Readonly<RouterContextProvider>;

/**
 * Now on the provider's market clock, which decides what is in the future (ADR 0091); the app
 * server's own clock when the provider cannot say.
 */
async function marketNow(): Promise<Date> {
  try {
    return new Date((await callProvider(calls.marketStatus, { signal: AbortSignal.timeout(2_000) })).now);
  } catch {
    return new Date();
  }
}

/** The Add Trade screen: which form is open and what it starts with (a recommendation's values included). */
export async function loadAddTrade(request: Request, context: Context) {
  requireUser(context);
  const search = new URL(request.url).searchParams;
  const prefill = prefillFromSearch(search);
  const asked = search.get("form");
  // "Record this trade" links carry the option's values and no form: they open the options form.
  const kind: TradeFormKind | null =
    TRADE_FORMS.find((k) => k === asked) ?? (Object.keys(prefill).length > 0 ? "options" : null);
  return { kind, defaultValue: kind ? { ...tradeDefaults(kind, await marketNow()), ...prefill } : {} };
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
  return redirectWithToast("/portfolio?period=all" satisfies HrefWithSearch, {
    type: "success",
    text: JOURNAL_TEXT.saved(described(trades[0]!), trades.length > 1),
  });
}
