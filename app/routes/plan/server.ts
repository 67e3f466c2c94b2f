/**
 * The Plan screen (docs/product.md#screens-plan, ADR 0081): the trader's book from the provider
 * (plan and best puts), a custom scenario from the address, and the sector override's form.
 */
import { data, href, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { TRADE_UPDATES_RECONNECT_MS, WS_TRADE_UPDATES } from "#contract/ws-paths.ts";
import type { BestPuts, Plan } from "#contract/plan.ts";
import { intentOf } from "#app/lib/intents.ts";
import { recordTradeHref } from "#app/lib/record-trade.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { PLAN_INTENTS, PLAN_PARAM } from "./intents.ts";

type Context = Readonly<RouterContextProvider>;

export const PLAN_TEXT = {
  unavailable: "Your plan is unavailable right now. Please try again.",
  moveRange: "The market move must be a number from −90 to 50 (percent).",
  sectorSaved: (ticker: string) => `Sector of ${ticker} saved`,
  sectorTooLong: "A sector name is at most 40 characters.",
} as const;

/** A custom move typed in percent, as a fraction; an error when it is not one the plan takes. */
function parseMove(raw: string | null): { move?: number; typed: string; error?: string } {
  const typed = (raw ?? "").trim();
  if (typed === "") return { typed };
  const n = Number(typed.replace("−", "-"));
  if (!Number.isFinite(n) || n < -90 || n > 50) return { typed, error: PLAN_TEXT.moveRange };
  return { typed, move: Math.round(n * 100) / 10_000 };
}

export async function loadPlan(request: Request, context: Context) {
  requireUser(context);
  const url = new URL(request.url);
  const custom = parseMove(url.searchParams.get(PLAN_PARAM.move));
  const query = custom.move === undefined ? {} : { move: String(custom.move) };
  const [plan, best] = await Promise.all([
    userCall(context, calls.plan, { query }).then(
      (p): Plan | null => p,
      (error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
        return null;
      },
    ),
    userCall(context, calls.bestPuts).then(
      (b): BestPuts | null => b,
      (error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
        return null;
      },
    ),
  ]);
  return {
    plan,
    best,
    // Each best put's pre-filled Record-this-trade link, with its one contract (written here, so the
    // page's code does not carry the link's rules).
    recordHrefs: Object.fromEntries(
      (best?.picks ?? []).map((p) => [
        p.recommendation.id,
        recordTradeHref({
          ticker: p.fit.ticker,
          strike: p.recommendation.strike_price,
          expiry: p.recommendation.expiration_date,
          bid: p.recommendation.bid,
          quantity: p.contracts,
        }),
      ]),
    ) as Record<number, string>,
    error: plan ? null : PLAN_TEXT.unavailable,
    custom: { typed: custom.typed, error: custom.error ?? null },
    live: { path: WS_TRADE_UPDATES, retryMs: TRADE_UPDATES_RECONNECT_MS },
  };
}

export async function planAction(request: Request, context: Context) {
  requireUser(context);
  const formData = await request.formData();
  switch (intentOf(formData, PLAN_INTENTS)) {
    case "sector":
      return saveSector(context, formData);
    case null:
      return data({ sector: { error: messages.unexpected, ticker: null, typed: "" } }, { status: 400 });
  }
}

async function saveSector(context: Context, formData: FormData) {
  const ticker = String(formData.get("ticker") ?? "");
  const typed = String(formData.get("sector") ?? "").trim();
  if (typed.length > 40) return data({ sector: { error: PLAN_TEXT.sectorTooLong, ticker, typed } }, { status: 400 });
  try {
    await userCall(context, calls.saveSectorOverride, { params: { ticker }, body: { sector: typed } });
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status >= 500) throw error;
    return data(
      { sector: { error: error.detail ?? messages.unexpected, ticker, typed } },
      { status: error.status || 400 },
    );
  }
  return redirectWithToast(`${href("/plan")}#ticker-${ticker}`, {
    type: "success",
    text: PLAN_TEXT.sectorSaved(ticker),
    autoClose: TOAST_MS.app,
  });
}
