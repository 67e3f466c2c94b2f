import { redirect, type RouterContextProvider } from "react-router";
import { ENHANCED_FIELD } from "#app/lib/action-reply.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { moveOne, parseOrder } from "#app/lib/stock-list.ts";
import { listFailureToast, replyWithToast } from "./action-reply.server.ts";
import { requireUser } from "./auth.server.ts";
import { ProviderError } from "./provider.server.ts";
import type { SessionUser } from "./session.server.ts";
import { readForm } from "./form-body.server.ts";

type Context = Readonly<RouterContextProvider>;

/**
 * What differs between the watchlist and the UIP list for their shared actions (docs/product.md#states-lists):
 * the address, the URL steps an action leaves, the provider calls, who may change what, and the texts.
 * The two lists' routes (app/routes/user-stocks/server.ts, uip-stocks.server.ts) each give one.
 */
export interface StockListActions {
  path: string;
  /** The URL state's names for the expanded row and reorder mode. */
  params: { open: string; reorder: string };
  /** One-off steps (modals) the address drops after any action. */
  oneOff: readonly string[];
  /** The rows' ids in their saved order. */
  order(context: Context, user: SessionUser): Promise<number[]>;
  saveOrder(context: Context, user: SessionUser, order: number[]): Promise<unknown>;
  remove(context: Context, id: number): Promise<unknown>;
  canDelete(user: SessionUser): boolean;
  /** Reordering needs a permission on this list (the UIP list: admins), refused with this text. */
  reorderRefused?: { allowed(user: SessionUser): boolean; text: string };
  /** The row's switch (the watchlist's recommendations, the UIP list's price alerts). */
  flag: {
    /** Saves the row's flag and answers the row's ticker (a form without JavaScript posts only the id). */
    save(context: Context, id: number, on: boolean): Promise<{ ticker: string }>;
    saved(on: boolean, ticker: string): string;
    failed(detail: string): string;
  };
  texts: { deleted(ticker: string): string; deleteFailed(error: ProviderError): string; reordered: string };
}

/** One posted form: the caller's request, its fields and the signed-in user. */
export interface ListPost {
  request: Request;
  context: Context;
  formData: FormData;
  user: SessionUser;
}

export async function readListPost({ request, context }: { request: Request; context: Context }): Promise<ListPost> {
  return { request, context, user: requireUser(context), formData: await readForm(request) };
}

/** The list's address after an action, without the one-off steps (works for …/<list>.data too). */
export function backTo(list: StockListActions, requestUrl: string, drop: readonly string[] = []): string {
  const url = new URL(requestUrl);
  for (const name of [...list.oneOff, "index", ...drop]) url.searchParams.delete(name);
  const search = url.searchParams.toString();
  return search ? `${list.path}?${search}` : list.path;
}

export const listToast = (type: "success" | "error" | "warning" | "info", text: string) => ({
  type,
  text,
  autoClose: TOAST_MS.list,
});

/** The row named by the form (`id`), or null. */
export function postedId(formData: FormData): number | null {
  const id = Number(formData.get("id"));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export const postedTicker = (formData: FormData) => sanitizeTicker(String(formData.get("ticker") ?? ""));

export const noStockNamed = () => new ProviderError(422, "Unprocessable Entity", "No stock was named");
const noOnOrOff = () => new ProviderError(422, "Unprocessable Entity", "Neither on nor off was asked for");

/** Switches the row's flag (`id`) on or off (`value`), the two posted by the list's switch forms (ADR 0060). */
export async function setFlag(list: StockListActions, { request, context, formData }: ListPost) {
  const redirectTo = backTo(list, request.url);
  // The wanted state rides on the switch's button (RowToggle): a post without it is refused, not read as off.
  const value = formData.get("value");
  const on = value === "true";
  try {
    const id = postedId(formData);
    if (!id) throw noStockNamed();
    if (value !== "true" && value !== "false") throw noOnOrOff();
    const { ticker } = await list.flag.save(context, id, on);
    return replyWithToast(formData, {
      ok: true,
      toast: listToast("success", list.flag.saved(on, ticker)),
      redirectTo,
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return replyWithToast(formData, {
      ok: false,
      toast: listToast("error", list.flag.failed(error.detail ?? error.statusText)),
      redirectTo,
      status: error.status || 503,
    });
  }
}

export async function deleteRow(list: StockListActions, { request, context, formData, user }: ListPost) {
  const redirectTo = backTo(list, request.url, [list.params.open]);
  if (!list.canDelete(user)) {
    return replyWithToast(formData, {
      ok: false,
      toast: listToast("error", messages.noDeletePermission),
      redirectTo,
      status: 403,
    });
  }
  try {
    const id = postedId(formData);
    if (!id) throw noStockNamed();
    await list.remove(context, id);
    return replyWithToast(formData, {
      ok: true,
      toast: listToast("success", list.texts.deleted(postedTicker(formData))),
      redirectTo,
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return replyWithToast(formData, {
      ok: false,
      toast: listToast("error", list.texts.deleteFailed(error)),
      redirectTo,
      status: error.status || 503,
    });
  }
}

/**
 * A new order: the whole order (`reorder`, Finish Reorder, which leaves reorder mode) or one row
 * one place up or down (`move`, the buttons without JavaScript, which stay in it).
 */
export async function reorderRows(list: StockListActions, post: ListPost, intent: "reorder" | "move") {
  const { request, context, formData, user } = post;
  const redirectTo =
    intent === "reorder" ? backTo(list, request.url, [list.params.reorder]) : backTo(list, request.url);
  if (list.reorderRefused && !list.reorderRefused.allowed(user)) {
    return replyWithToast(formData, {
      ok: false,
      toast: listToast("error", list.reorderRefused.text),
      redirectTo: backTo(list, request.url, [list.params.reorder]),
      status: 403,
    });
  }
  try {
    const current = await list.order(context, user);
    const id = postedId(formData);
    const order =
      intent === "move"
        ? id
          ? moveOne(current, id, formData.get("direction") === "up" ? "up" : "down")
          : null
        : parseOrder(formData.get("order"));
    if (!order) throw new ProviderError(422, "Unprocessable Entity", "The new order could not be read");
    const unchanged = order.length === current.length && order.every((rowId, i) => rowId === current[i]);
    // Finishing without JavaScript after moves that were each saved already: nothing to send.
    if (unchanged && formData.get(ENHANCED_FIELD) !== "1") return redirect(redirectTo);
    await list.saveOrder(context, user, order);
    return replyWithToast(formData, { ok: true, toast: listToast("success", list.texts.reordered), redirectTo });
  } catch (error) {
    return listChangeFailed(formData, error, backTo(list, request.url));
  }
}

/**
 * A list change that failed (docs/product.md#errors-lists): the server's detail as a warning
 * ('AAPL is already in your watchlist'), else 'Error: …', with the provider's status. A response
 * thrown on the way (a redirect to sign in) goes on as it is.
 */
export function listChangeFailed(formData: FormData, error: unknown, redirectTo: string) {
  if (error instanceof Response) throw error;
  const failure = listFailureToast(error);
  return replyWithToast(formData, {
    ok: false,
    toast: listToast(failure.type, failure.text),
    redirectTo,
    status: error instanceof ProviderError && error.status ? error.status : 500,
  });
}

/** A form this list does not know. */
export function unknownIntent(list: StockListActions, { request, formData }: ListPost) {
  return replyWithToast(formData, {
    ok: false,
    toast: listToast("error", messages.unknownError),
    redirectTo: backTo(list, request.url),
    status: 400,
  });
}
