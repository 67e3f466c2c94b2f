import type { Href } from "#app/lib/href.ts";
import type { Route } from "./+types/route";
import { addUserStock, loadAddUserStock } from "./server.ts";
import { ADD_USER_STOCK_FORM } from "#app/lib/form-schemas.ts";
import { AddStockForm } from "#app/components/stock-list/add-stock-form.tsx";

export const loader = (args: Route.LoaderArgs) => loadAddUserStock(args);
export const action = (args: Route.ActionArgs) => addUserStock(args);

export default function AddUserStock({ actionData }: Route.ComponentProps) {
  return (
    <AddStockForm
      path={"/add-user-stock" satisfies Href}
      listPath={"/user-stocks" satisfies Href}
      reply={actionData}
      schema={ADD_USER_STOCK_FORM}
    />
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Add Stock · PutSeller" }];
