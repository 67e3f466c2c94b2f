/**
 * /broker, the trader's Tradier connection (docs/product.md#broker-sync, ADR 0075 and 0093): the
 * loader reads the connection (never the token); the action connects with a pasted token, picks
 * the account, syncs now or removes the connection. A refused connect answers its sentence and
 * keeps no value: the token field is never sent back to the page, not even when refused.
 */
import { data, href, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { BrokerAccountNumber, maskedAccount, TradierConnectBody } from "#contract/broker-sync.ts";
import type { TradierConnection } from "#contract/broker-sync.ts";
import { intentOf } from "#app/lib/intents.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { readForm } from "#app/server/form-body.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { BROKER_INTENTS } from "./intents.ts";
import { syncResultText } from "./result-text.ts";

type Context = Readonly<RouterContextProvider>;

export const BROKER_TEXT = {
  unavailable: "Your broker connection is unavailable right now. Please try again.",
  connected: (account: string) => `Tradier connected: account ${account}`,
  chooseAccount: "Tradier connected: choose the account to sync",
  accountChosen: (account: string) => `Account ${account} will be synced`,
  removed: "Tradier disconnected: the stored token is deleted",
} as const;

const DAY_TIME = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});
const dayTime = (iso: string) => DAY_TIME.format(new Date(iso));

/** No cache may keep a copy of the page: it names the trader's account. */
const NO_STORE = { "Cache-Control": "no-store" } as const;

export async function loadBroker(context: Context) {
  requireUser(context);
  let connection: TradierConnection | null = null;
  let error: string | null = null;
  try {
    connection = (await userCall(context, calls.tradierConnection)).connection;
  } catch (failure) {
    if (!(failure instanceof ProviderError)) throw failure;
    error = BROKER_TEXT.unavailable;
  }
  return data(
    {
      connection,
      error,
      // Written on the server in New York time, so the page reads the same before and after scripts.
      connectedOn: connection ? dayTime(connection.connected_at) : null,
      syncedAt: connection?.last_synced_at ? dayTime(connection.last_synced_at) : null,
      summary: connection?.last_result ? syncResultText(connection.last_result) : null,
    },
    { headers: NO_STORE },
  );
}

export async function brokerAction(request: Request, context: Context) {
  requireUser(context);
  const formData = await readForm(request);
  switch (intentOf(formData, BROKER_INTENTS)) {
    case "connect":
      return connect(context, formData);
    case "account":
      return pickAccount(context, formData);
    case "sync":
      return sync(context);
    case "remove":
      return remove(context);
    case null:
      return data({ form: null, error: messages.unexpected }, { status: 400 });
  }
}

const toScreen = (type: "success" | "error", text: string) =>
  redirectWithToast(href("/broker"), { type, text, autoClose: TOAST_MS.app });

/** A provider's refusal (4xx) as the form's sentence; anything else is the error page's. */
function refusal(error: unknown): { status: number; detail: string } {
  if (!(error instanceof ProviderError) || error.status >= 500) throw error;
  return { status: error.status, detail: error.detail ?? messages.unexpected };
}

async function connect(context: Context, formData: FormData) {
  const parsed = TradierConnectBody.safeParse({ token: formData.get("token") ?? "" });
  // The refused form answers only its sentence: the token is not sent back (ADR 0075).
  if (!parsed.success)
    return data({ form: "connect" as const, error: parsed.error.issues[0]!.message }, { status: 400 });
  try {
    const { connection } = await userCall(context, calls.connectTradier, { body: parsed.data });
    return toScreen(
      "success",
      connection?.account ? BROKER_TEXT.connected(connection.account) : BROKER_TEXT.chooseAccount,
    );
  } catch (error) {
    const { status, detail } = refusal(error);
    return data({ form: "connect" as const, error: detail }, { status });
  }
}

async function pickAccount(context: Context, formData: FormData) {
  const parsed = BrokerAccountNumber.safeParse(formData.get("account") ?? "");
  if (!parsed.success)
    return data({ form: "account" as const, error: parsed.error.issues[0]!.message }, { status: 400 });
  try {
    await userCall(context, calls.tradierAccount, { body: { account: parsed.data } });
    return toScreen("success", BROKER_TEXT.accountChosen(maskedAccount(parsed.data)));
  } catch (error) {
    const { status, detail } = refusal(error);
    return data({ form: "account" as const, error: detail }, { status });
  }
}

async function sync(context: Context) {
  try {
    const result = await userCall(context, calls.syncTradier);
    return toScreen("success", syncResultText(result));
  } catch (error) {
    // Tradier's refusals and outages (4xx, 502, 503) carry the sentence naming them; the screen keeps it too.
    if (error instanceof ProviderError && error.status >= 400 && error.status !== 500 && error.detail)
      return toScreen("error", error.detail);
    throw error;
  }
}

async function remove(context: Context) {
  await userCall(context, calls.disconnectTradier);
  return toScreen("success", BROKER_TEXT.removed);
}
