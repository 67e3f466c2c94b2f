import type { Href } from "#app/lib/href.ts";
import { intentOf } from "#app/lib/intents.ts";
import type { Route } from "./+types/route";
import * as calls from "#contract/calls.ts";
import { watchlistRows, type WatchlistRow } from "#app/lib/list-row-data.ts";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";
import { messages } from "#app/lib/messages.ts";
import { orderPayload } from "#app/lib/stock-list.ts";
import { hasPermission, requireUser, userCall } from "#app/server/auth.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import {
  deleteRow,
  readListPost,
  reorderRows,
  setFlag,
  unknownIntent,
  type StockListActions,
} from "#app/server/list-actions.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { INTENTS, type Intent } from "./route.offline.ts";

/** The watchlist: the trader's own rows; deleting needs USER_STOCK DELETE, reordering nothing more. */
const WATCHLIST: StockListActions = {
  path: "/user-stocks" satisfies Href,
  params: LIST_PARAM,
  oneOff: [LIST_PARAM.delete],
  order: async (context, user) =>
    watchlistRows(await userCall(context, calls.listUserStocks, { params: { userId: user.id } })).map((row) => row.id),
  saveOrder: (context, user, order) =>
    userCall(context, calls.reorderUserStocks, { params: { userId: user.id }, body: orderPayload(order) }),
  remove: (context, id) => userCall(context, calls.deleteUserStock, { params: { id } }),
  canDelete: (user) => hasPermission(user, "USER_STOCK", "DELETE"),
  flag: {
    save: async (context, id, on) => {
      const row = await userCall(context, calls.updateUserStock, {
        params: { id },
        body: { generate_recommendation: on },
      });
      return { ticker: row.stock.ticker };
    },
    saved: () => messages.recommendationSettingUpdated,
    failed: messages.recommendationToggleFailed,
  },
  texts: {
    deleted: messages.deletedFromWatchlist,
    deleteFailed: () => messages.deleteFailed,
    reordered: messages.watchlistReordered,
  },
};

export async function loadWatchlist({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const base = {
    canDelete: WATCHLIST.canDelete(user),
    logoTemplate: appEnv().LOGO_URL_TEMPLATE || null,
    now: Date.now(),
  };
  try {
    const stocks = await userCall(context, calls.listUserStocks, { params: { userId: user.id } });
    return { ...base, stocks: watchlistRows(stocks), error: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { ...base, stocks: [] as WatchlistRow[], error: messages.fetchUserStocksFailed };
  }
}

export async function changeWatchlist(args: Route.ActionArgs) {
  const post = await readListPost(args);
  const intent: Intent | null = intentOf(post.formData, INTENTS);
  if (intent === null) return unknownIntent(WATCHLIST, post);
  switch (intent) {
    case "toggle":
      return setFlag(WATCHLIST, post);
    case "delete":
      return deleteRow(WATCHLIST, post);
    case "reorder":
    case "move":
      return reorderRows(WATCHLIST, post, intent);
    default:
      return intent satisfies never;
  }
}
