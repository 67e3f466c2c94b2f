import type { Href } from "#app/lib/href.ts";
import type { Route } from "./+types/route";
import * as calls from "#contract/calls.ts";
import type { UserStock } from "#contract/entities.ts";
import { messages } from "#app/lib/messages.ts";
import { EditUserStockSchema, type EditUserStock } from "#app/lib/stock-schemas.ts";
import { hasPermission, userCall } from "#app/server/auth.server.ts";
import { editPage, findRow, saveStock, type EditStock } from "#app/server/edit-stock.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";

/** docs/product.md#screens-watchlist-edit: the user's own row; a ticker not in it goes back with 'User Stock not found!'. */
const EDIT_WATCHLIST: EditStock<UserStock, EditUserStock> = {
  listPath: "/user-stocks" satisfies Href,
  schema: EditUserStockSchema,
  rows: (context, user) => userCall(context, calls.listUserStocks, { params: { userId: user.id } }),
  notFound: () => messages.userStockNotFound,
  canDelete: (user) => hasPermission(user, "USER_STOCK", "DELETE"),
  save: (context, id, body) => userCall(context, calls.updateUserStock, { params: { id }, body }),
  refused: (error) => {
    // Values the provider refused stay in the form to be corrected.
    if (error instanceof ProviderError && error.status === 422) {
      return { keep: error.detail ?? messages.editErrorOccurred, status: 422, toast: false };
    }
    // docs/product.md#errors-lists: back to the list with the server's message, 'An error occurred.' or 'An unknown error occurred.'.
    if (!(error instanceof ProviderError)) return { backWith: messages.editUnknownError };
    return { backWith: error.status > 0 ? (error.detail ?? messages.editErrorOccurred) : error.message };
  },
};

export async function loadEditUserStock({ params, context }: Route.LoaderArgs) {
  const { user, row } = await findRow(EDIT_WATCHLIST, context, params.ticker);
  return editPage(EDIT_WATCHLIST, user, row);
}

export async function saveUserStock(args: Route.ActionArgs) {
  return saveStock(EDIT_WATCHLIST, args);
}
