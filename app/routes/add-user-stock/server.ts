import type { Href } from "#app/lib/href.ts";
import type { Route } from "./+types/route";
import * as calls from "#contract/calls.ts";
import { intentOf } from "#app/lib/intents.ts";
import { AddUserStockSchema, type AddUserStock } from "#app/lib/stock-schemas.ts";
import { createStock, lookUpName, readAddPost, requireAdder, type AddStock } from "#app/server/add-stock.server.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { INTENTS } from "./route.offline.ts";

/** docs/product.md#screens-watchlist-add: every signed-in user adds to their own watchlist. */
const ADD_TO_WATCHLIST: AddStock<AddUserStock> = {
  listPath: "/user-stocks" satisfies Href,
  schema: AddUserStockSchema,
  create: (context, user, body) => userCall(context, calls.createUserStock, { params: { userId: user.id }, body }),
};

export function loadAddUserStock({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export async function addUserStock({ request, context }: Route.ActionArgs) {
  const user = await requireAdder(ADD_TO_WATCHLIST, context);
  const formData = await readAddPost(request);
  // A post without an intent (Enter before the page's scripts ran) adds the stock.
  switch (intentOf(formData, INTENTS) ?? "create") {
    case "lookup":
      return lookUpName(ADD_TO_WATCHLIST, context, formData);
    case "create":
      return createStock(ADD_TO_WATCHLIST, context, user, formData);
  }
}
