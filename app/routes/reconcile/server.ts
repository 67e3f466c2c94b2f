/**
 * The reconciliation screen (docs/product.md#screens-reconcile, ADR 0094): the journal beside a
 * broker's positions from the provider, and the one form a difference's fix posts.
 */
import { data, href, redirect, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { BROKER_SNAPSHOT_SOURCES, type BrokerSnapshotSource } from "#contract/broker-positions.ts";
import { FIX_ACTIONS } from "#contract/reconcile.ts";
import { intentOf } from "#app/lib/intents.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { readForm } from "#app/server/form-body.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { orUnavailable } from "#app/server/unavailable.server.ts";
import { FIX_FIELD, RECONCILE_INTENTS, RECONCILE_PARAM } from "./intents.ts";

type Context = Readonly<RouterContextProvider>;

export const RECONCILE_TEXT = {
  recorded: "Recorded in the journal",
  priceNotANumber: "Price must be a number",
} as const;

const sourceOf = (raw: string | null): BrokerSnapshotSource | undefined =>
  BROKER_SNAPSHOT_SOURCES.find((s) => s === raw);

const pathOf = (source: string | undefined) =>
  source ? `${href("/reconcile")}?${RECONCILE_PARAM.source}=${source}` : href("/reconcile");

export async function loadReconcile(request: Request, context: Context) {
  requireUser(context);
  const source = sourceOf(new URL(request.url).searchParams.get(RECONCILE_PARAM.source));
  try {
    return await orUnavailable(userCall(context, calls.reconciliation, { query: source ? { source } : {} }));
  } catch (error) {
    // A source the trader has no positions from (an old link): the latest instead.
    if (error instanceof ProviderError && error.status === 404) throw redirect(href("/reconcile"));
    throw error;
  }
}

export async function reconcileAction(request: Request, context: Context) {
  requireUser(context);
  const form = await readForm(request);
  switch (intentOf(form, RECONCILE_INTENTS)) {
    case "fix":
      return fix(context, form);
    case null:
      return data({ fix: { key: null, action: null, error: messages.unexpected, typed: "" } }, { status: 400 });
  }
}

async function fix(context: Context, form: FormData) {
  const text = (name: string) => String(form.get(name) ?? "");
  const key = text(FIX_FIELD.key);
  const action = FIX_ACTIONS.find((a) => a === text(FIX_FIELD.action)) ?? null;
  const typed = text(FIX_FIELD.price).trim();
  const source = sourceOf(text(FIX_FIELD.source));
  const refuse = (error: string, status: number) => data({ fix: { key, action, error, typed } }, { status });
  if (!source || !action) return refuse(messages.unexpected, 400);
  const price = typed === "" ? undefined : Number(typed.replace(/[$,\s]/g, ""));
  if (price !== undefined && !Number.isFinite(price)) return refuse(RECONCILE_TEXT.priceNotANumber, 400);
  try {
    await userCall(context, calls.fixReconciliation, {
      body: {
        source,
        as_of: text(FIX_FIELD.asOf),
        key,
        action,
        quantity: Number(text(FIX_FIELD.quantity)),
        ...(price === undefined ? {} : { price }),
      },
    });
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status >= 500) throw error;
    return refuse(error.detail ?? messages.unexpected, error.status || 400);
  }
  return redirectWithToast(pathOf(source), { type: "success", text: RECONCILE_TEXT.recorded, autoClose: TOAST_MS.app });
}
