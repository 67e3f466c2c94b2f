import type { HrefWithSearch } from "#app/lib/href.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { TradeInput } from "#contract/entities.ts";
import { RollCandidatesParams, type RollCandidates } from "#contract/rolls.ts";
import { intentOf } from "#app/lib/intents.ts";
import { ROLL_INTENTS, rollDefaults, RollFormSchema, type RollIntent } from "#app/lib/roll-form.ts";
import { RECORD_ROLL_PARAM, ROLL_TEXT } from "#app/lib/roll-link.ts";
import { utcInstant } from "#app/lib/trade-fields.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { readForm } from "#app/server/form-body.server.ts";

/** The roll candidates screen (docs/product.md#screens-roll-candidates, docs/decisions/0036). */

type Context = Readonly<RouterContextProvider>;
const NO_STORE = { "Cache-Control": "no-store" };

const isReadable = (error: unknown): error is ProviderError =>
  error instanceof ProviderError && error.status !== 0 && (error.status < 500 || error.status === 503);

function tradeIdOf(params: { tradeId?: string }): number | null {
  const parsed = RollCandidatesParams.safeParse(params);
  return parsed.success ? parsed.data.tradeId : null;
}

/** A number from the query, or null when it is missing or not a usable amount. */
function numberParam(search: URLSearchParams, name: string): number | null {
  const text = search.get(name);
  const value = Number(text);
  return text && Number.isFinite(value) && value > 0 && value < 10_000_000 ? value : null;
}

/**
 * The candidates of the put or covered call the trade sold; with `?strike&expiry&bid` ("Record this
 * roll") the form's starting values too. A trade that is not the caller's answers 404; a closed
 * option or a trade that sold none shows the provider's reason.
 */
export async function loadRollCandidates(request: Request, params: { tradeId?: string }, context: Context) {
  requireUser(context);
  const tradeId = tradeIdOf(params);
  if (tradeId === null) throw data("Trade not found", { status: 404, headers: NO_STORE });
  let rolls: RollCandidates;
  try {
    rolls = await userCall(context, calls.rollCandidates, { params: { tradeId } });
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) {
      throw data("Trade not found", { status: 404, headers: NO_STORE });
    }
    if (!isReadable(error)) throw error;
    return data(
      { tradeId, rolls: null, error: error.detail ?? error.message, form: null },
      { status: error.status, headers: NO_STORE },
    );
  }
  const search = new URL(request.url).searchParams;
  const expiry = search.get(RECORD_ROLL_PARAM.expiry);
  const strike = numberParam(search, RECORD_ROLL_PARAM.strike);
  const form =
    strike !== null && expiry && /^\d{4}-\d{2}-\d{2}$/.test(expiry)
      ? rollDefaults({
          contracts: rolls.position.contracts,
          closeAsk: rolls.position.close_ask,
          commission: rolls.commission,
          strike,
          expiry,
          bid: numberParam(search, RECORD_ROLL_PARAM.bid),
          now: new Date(),
        })
      : null;
  return data({ tradeId, rolls, error: null, form }, { headers: NO_STORE });
}

/** "Record this roll": the buy-to-close of the open option and the new sell-to-open, stored together. */
export async function rollAction(request: Request, params: { tradeId?: string }, context: Context) {
  requireUser(context);
  const tradeId = tradeIdOf(params);
  if (tradeId === null) throw data("Trade not found", { status: 404 });
  const formData = await readForm(request);
  const intent: RollIntent | null = intentOf(formData, ROLL_INTENTS);
  switch (intent) {
    case "record-roll": {
      const submission = parseWithZod(formData, { schema: RollFormSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const roll = submission.value;
      try {
        // The open option's ticker, type, strike and expiry come from the trade that sold it.
        const sold = await userCall(context, calls.getTrade, { params: { id: tradeId } });
        const type = sold.option_type ?? "put";
        const common = {
          ticker: sold.ticker,
          option_type: type,
          quantity: roll.contracts,
          traded_at: utcInstant(roll.tradedAt),
          portfolio: sold.portfolio,
          strategy: sold.strategy,
        };
        const close: TradeInput = {
          ...common,
          kind: "buy_to_close",
          strike: sold.strike,
          expiry: sold.expiry,
          price: roll.closePrice,
          fees: roll.closeFees,
        };
        const open: TradeInput = {
          ...common,
          kind: "sell_to_open",
          strike: roll.strike,
          expiry: roll.expiry,
          price: roll.openPrice,
          fees: roll.openFees,
        };
        await userCall(context, calls.rollTrade, { body: { close, open } });
        return redirectWithToast("/portfolio?period=all" satisfies HrefWithSearch, {
          type: "success",
          text: `${ROLL_TEXT.recorded}: ${sold.ticker} ${sold.strike} ${type} into the ${roll.strike} ${type} expiring ${roll.expiry}`,
        });
      } catch (error) {
        if (!isReadable(error)) throw error;
        // The provider's reason (e.g. more contracts than are open) stays with every typed value.
        return data(
          { result: submission.reply({ formErrors: [error.detail ?? error.message] }) },
          { status: error.status },
        );
      }
    }
    default:
      return data({ result: undefined }, { status: 400 });
  }
}
