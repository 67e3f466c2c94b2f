import type { Href } from "#app/lib/href.ts";
import { intentOf } from "#app/lib/intents.ts";
import type { Route } from "./+types/route";
import * as calls from "#contract/calls.ts";
import type { Category } from "#contract/entities.ts";
import { uipRows, type UipRow } from "#app/lib/list-row-data.ts";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";
import { messages } from "#app/lib/messages.ts";
import { OFFLINE_SAVE_HEADER } from "#app/offline/index.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { ENHANCED_FIELD } from "#app/lib/action-reply.ts";
import { orderPayload } from "#app/lib/stock-list.ts";
import { replyWithToast } from "#app/server/action-reply.server.ts";
import { readAiText } from "#app/server/ai-read.server.ts";
import { hasPermission, requireUser, userCall } from "#app/server/auth.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import {
  backTo,
  deleteRow,
  listChangeFailed,
  listToast,
  noStockNamed,
  postedId,
  postedTicker,
  readListPost,
  reorderRows,
  setFlag,
  unknownIntent,
  type ListPost,
  type StockListActions,
} from "#app/server/list-actions.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { INTENTS, type Intent } from "./route.offline.ts";

/**
 * The UIP list: one curated list every user sees; only admins (UIP_STOCK permissions) delete and
 * reorder, with the refusal texts of docs/product.md#errors-lists (ADR 15).
 */
const UIP_LIST: StockListActions = {
  path: "/uip-stocks" satisfies Href,
  params: LIST_PARAM,
  oneOff: [LIST_PARAM.delete, LIST_PARAM.add, LIST_PARAM.ai, ENHANCED_FIELD],
  order: async (context) => uipRows(await userCall(context, calls.listUipStocks)).map((row) => row.id),
  saveOrder: (context, _user, order) => userCall(context, calls.reorderUipStocks, { body: orderPayload(order) }),
  remove: (context, id) => userCall(context, calls.deleteUipStock, { params: { id } }),
  canDelete: (user) => hasPermission(user, "UIP_STOCK", "DELETE"),
  reorderRefused: {
    allowed: (user) => hasPermission(user, "UIP_STOCK", "UPDATE"),
    text: messages.notAuthorizedUipReorder,
  },
  flag: {
    save: (context, id, on) => userCall(context, calls.setUipPriceAlert, { params: { id }, body: { enabled: on } }),
    saved: (on, ticker) => (on ? messages.priceAlertOn(ticker) : messages.priceAlertOff(ticker)),
    failed: messages.priceAlertFailed,
  },
  texts: {
    deleted: messages.deletedFromUip,
    deleteFailed: (error) => (error.status === 403 ? messages.noDeletePermission : messages.deleteFailed),
    reordered: messages.uipReordered,
  },
};

export async function loadUipList({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const url = new URL(request.url);
  const base = {
    canCreate: hasPermission(user, "UIP_STOCK", "CREATE"),
    canUpdate: hasPermission(user, "UIP_STOCK", "UPDATE"),
    canDelete: UIP_LIST.canDelete(user),
    logoTemplate: appEnv().LOGO_URL_TEMPLATE || null,
    now: Date.now(),
  };
  // A page the server renders with the AI modal open carries the whole text (no JavaScript, or a
  // shared link); the browser's own data loads (…/uip-stocks.data) never wait for it, it streams.
  const aiTicker = sanitizeTicker(url.searchParams.get(LIST_PARAM.ai) ?? "");
  // Nor does the copy the service worker saves for offline reading (X-Offline-Save): it would spend
  // one of the trader's AI texts for the minute on a page nobody is looking at (README "Security and limits").
  const analysis =
    aiTicker && !url.pathname.endsWith(".data") && !request.headers.has(OFFLINE_SAVE_HEADER)
      ? readAiText(context, request, calls.stockAnalysis, { ticker: aiTicker }).then((r) => ({
          ticker: aiTicker,
          ...r,
        }))
      : Promise.resolve(null);
  const [stocks, categories, ai] = await Promise.allSettled([
    userCall(context, calls.listUipStocks),
    userCall(context, calls.listCategories),
    analysis,
  ]);
  for (const result of [stocks, categories, ai]) {
    if (result.status === "rejected" && !(result.reason instanceof ProviderError)) throw result.reason;
  }
  // docs/product.md#errors-lists: a failed categories load is only logged; the rows still name their own categories.
  if (categories.status === "rejected") console.error("[uip-stocks] categories failed:", String(categories.reason));
  const rows = stocks.status === "fulfilled" ? uipRows(stocks.value) : [];
  return {
    ...base,
    stocks: rows,
    categories: categories.status === "fulfilled" ? categories.value : categoriesOfRows(rows),
    error: stocks.status === "fulfilled" ? null : messages.fetchUipStocksFailed,
    analysis: ai.status === "fulfilled" ? ai.value : null,
  };
}

function categoriesOfRows(rows: UipRow[]): Category[] {
  const byId = new Map(rows.map((row) => [row.category.id, row.category]));
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** docs/product.md#states-lists: a swipe right (or the row's button) adds the stock to the user's own watchlist with the UIP values. */
async function copyToWatchlist({ request, context, formData, user }: ListPost) {
  const redirectTo = backTo(UIP_LIST, request.url);
  const id = postedId(formData);
  try {
    if (!id) throw noStockNamed();
    const row = (await userCall(context, calls.listUipStocks)).find((r) => r.id === id);
    if (!row)
      throw new ProviderError(404, "Not Found", messages.uipStockNotFound(postedTicker(formData) || `Stock ${id}`));
    const added = await userCall(context, calls.createUserStock, {
      params: { userId: user.id },
      body: {
        base_iv: row.base_iv,
        conservative_iv: row.conservative_iv,
        buy_level_one: row.buy_level_one,
        buy_level_two: row.buy_level_two,
        buy_level_three: row.buy_level_three,
        buy_level_four: row.buy_level_four,
        stock: { ticker: row.stock.ticker, name: row.stock.name, current_price: 0 },
      },
    });
    return replyWithToast(formData, {
      ok: true,
      toast: listToast("success", messages.addedToWatchlist(added.stock.ticker)),
      redirectTo,
    });
  } catch (error) {
    return listChangeFailed(formData, error, redirectTo);
  }
}

export async function changeUipList(args: Route.ActionArgs) {
  const post = await readListPost(args);
  const intent: Intent | null = intentOf(post.formData, INTENTS);
  if (intent === null) return unknownIntent(UIP_LIST, post);
  switch (intent) {
    case "alert":
      return setFlag(UIP_LIST, post);
    case "delete":
      return deleteRow(UIP_LIST, post);
    case "watchlist":
      return copyToWatchlist(post);
    case "reorder":
    case "move":
      return reorderRows(UIP_LIST, post, intent);
    default:
      return intent satisfies never;
  }
}
