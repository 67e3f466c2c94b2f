import type { Href } from "#app/lib/href.ts";
import type { Route } from "./+types/route";
import { loadEditUserStock, saveUserStock } from "./server.ts";
import { EDIT_USER_STOCK_FORM } from "#app/lib/form-schemas.ts";
import { DeleteFromEditPage, EditStockForm, editPageMeta } from "#app/components/stock-list/edit-stock-form.tsx";
import { shouldRevalidateEditPage } from "#app/components/stock-list/list-state.ts";
import { orUnavailable } from "#app/server/unavailable.server.ts";

export const loader = (args: Route.LoaderArgs) => orUnavailable(loadEditUserStock(args));
export const action = (args: Route.ActionArgs) => saveUserStock(args);
export const shouldRevalidate = shouldRevalidateEditPage;

export default function EditUserStock({ loaderData, actionData }: Route.ComponentProps) {
  const { row, canDelete, logoSrc } = loaderData;
  const { stock } = row;
  const here = `/user-stock/${stock.ticker}` satisfies Href;
  return (
    <EditStockForm
      here={here}
      formId={`edit-user-stock-${stock.ticker}`}
      listPath={"/user-stocks" satisfies Href}
      schema={EDIT_USER_STOCK_FORM}
      row={row}
      logoSrc={logoSrc}
      reply={actionData}
      canDelete={canDelete}
      deleteDialog={
        <DeleteFromEditPage action={"/user-stocks" satisfies Href} here={here} row={row}>
          <p>
            {stock.name} ({stock.ticker}) will be removed from your watchlist. Your values for it are deleted too.
          </p>
        </DeleteFromEditPage>
      }
    />
  );
}

export const meta = editPageMeta;
