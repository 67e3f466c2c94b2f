import type { Href } from "#app/lib/href.ts";
import type { Route } from "./+types/route";
import { addUipStock, loadAddUipStock } from "./server.ts";
import { ADD_UIP_STOCK_FORM } from "#app/lib/form-schemas.ts";
import { AddStockForm } from "#app/components/stock-list/add-stock-form.tsx";

const CATEGORIES_FAILED = "The categories could not be loaded. Reload the page to try again.";

export const loader = (args: Route.LoaderArgs) => loadAddUipStock(args);
export const action = (args: Route.ActionArgs) => addUipStock(args);

export default function AddUipStock({ loaderData, actionData }: Route.ComponentProps) {
  const { categories } = loaderData;
  return (
    <AddStockForm
      path={"/add-uip-stock" satisfies Href}
      listPath={"/uip-stocks" satisfies Href}
      reply={actionData}
      schema={ADD_UIP_STOCK_FORM}
      note={<p className="uip-form-note">Adds the stock to the shared UIP list, at its end, for every user.</p>}
      category={{ choices: categories ?? [], hint: categories ? null : CATEGORIES_FAILED }}
    />
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Add Stock · UIP Stocks · PutSeller" }];
