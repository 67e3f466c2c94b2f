import type { Href } from "#app/lib/href.ts";
import type { Route } from "./+types/route";
import * as calls from "#contract/calls.ts";
import type { Category, UipStock } from "#contract/entities.ts";
import { messages } from "#app/lib/messages.ts";
import { EditUipStockSchema, type EditUipStock } from "#app/lib/stock-schemas.ts";
import { hasPermission, userCall } from "#app/server/auth.server.ts";
import { editPage, findRow, saveStock, type EditStock } from "#app/server/edit-stock.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";

/** docs/product.md#errors-lists: 404 'Not found', 403 'Not authorized to edit UIP stock', else 'An unexpected error occurred'. */
function editFailureText(error: ProviderError): string {
  if (error.status === 404) return messages.notFound;
  if (error.status === 403) return messages.notAuthorizedUipEdit;
  return messages.unexpected;
}

/** docs/product.md#screens-uip-edit: a ticker not in the UIP list redirects; admins delete (ADR 15). */
const EDIT_UIP: EditStock<UipStock, EditUipStock> = {
  listPath: "/uip-stocks" satisfies Href,
  schema: EditUipStockSchema,
  rows: (context) => userCall(context, calls.listUipStocks),
  notFound: messages.uipStockNotFound,
  canDelete: (user) => hasPermission(user, "UIP_STOCK", "DELETE"),
  canSave: (user) => hasPermission(user, "UIP_STOCK", "UPDATE"),
  save: (context, id, body) => userCall(context, calls.updateUipStock, { params: { id }, body }),
  refused: (error) => {
    if (!(error instanceof ProviderError)) throw error;
    // The page stays with every typed value; a value the provider refused is named under the form.
    const text = error.status === 422 ? (error.detail ?? messages.unexpected) : editFailureText(error);
    return { keep: text, status: error.status || 503, toast: true };
  },
};

export async function loadEditUipStock({ params, context }: Route.LoaderArgs) {
  const { user, row } = await findRow(EDIT_UIP, context, params.ticker);
  let categories: Category[] = [row.category];
  try {
    categories = await userCall(context, calls.listCategories);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // docs/product.md#errors-lists: logged only; the row's own category stays choosable.
    console.error("[uip-stock] categories failed:", error.message);
  }
  return { ...editPage(EDIT_UIP, user, row), categories, canUpdate: hasPermission(user, "UIP_STOCK", "UPDATE") };
}

export async function saveUipStock(args: Route.ActionArgs) {
  return saveStock(EDIT_UIP, args);
}
