import type { Href } from "#app/lib/href.ts";
import type { Route } from "./+types/route";
import * as calls from "#contract/calls.ts";
import type { Category } from "#contract/entities.ts";
import { intentOf } from "#app/lib/intents.ts";
import { messages } from "#app/lib/messages.ts";
import { AddUipStockSchema, type AddUipStock } from "#app/lib/stock-schemas.ts";
import { createStock, lookUpName, readAddPost, requireAdder, type AddStock } from "#app/server/add-stock.server.ts";
import { hasPermission, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { INTENTS } from "./route.offline.ts";

/** docs/product.md#roles: 'Add Stock' is offered only with UIP_STOCK CREATE; anyone else is sent back to the list. */
const ADD_TO_UIP: AddStock<AddUipStock> = {
  listPath: "/uip-stocks" satisfies Href,
  schema: AddUipStockSchema,
  withCategory: true,
  createRefused: {
    allowed: (user) => hasPermission(user, "UIP_STOCK", "CREATE"),
    text: messages.notAuthorizedUipCreate,
  },
  create: (context, _user, body) => userCall(context, calls.createUipStock, { body }),
};

async function loadCategories(context: Route.LoaderArgs["context"]): Promise<Category[] | null> {
  try {
    return await userCall(context, calls.listCategories);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // docs/product.md#errors-lists: a categories failure is logged; the form says so under the select.
    console.error("[add-uip-stock] categories failed:", error.message);
    return null;
  }
}

export async function loadAddUipStock({ context }: Route.LoaderArgs) {
  await requireAdder(ADD_TO_UIP, context);
  return { categories: await loadCategories(context) };
}

export async function addUipStock({ request, context }: Route.ActionArgs) {
  const user = await requireAdder(ADD_TO_UIP, context);
  const formData = await readAddPost(request);
  // A post without an intent (Enter before the page's scripts ran) adds the stock.
  switch (intentOf(formData, INTENTS) ?? "create") {
    case "lookup":
      return lookUpName(ADD_TO_UIP, context, formData);
    case "create":
      return createStock(ADD_TO_UIP, context, user, formData);
  }
}
