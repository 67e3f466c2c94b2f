import type { Href } from "#app/lib/href.ts";
import type { Route } from "./+types/route";
import { loadEditUipStock, saveUipStock } from "./server.ts";
import { messages } from "#app/lib/messages.ts";
import { EDIT_UIP_STOCK_FORM } from "#app/lib/form-schemas.ts";
import { CategoryBadge } from "#app/components/category-badge.tsx";
import { DeleteFromEditPage, EditStockForm, editPageMeta } from "#app/components/stock-list/edit-stock-form.tsx";
import { shouldRevalidateEditPage } from "#app/components/stock-list/list-state.ts";
import { orUnavailable } from "#app/server/unavailable.server.ts";

export const loader = (args: Route.LoaderArgs) => orUnavailable(loadEditUipStock(args));
export const action = (args: Route.ActionArgs) => saveUipStock(args);
export const shouldRevalidate = shouldRevalidateEditPage;

export default function EditUipStock({ loaderData, actionData }: Route.ComponentProps) {
  const { row, categories, canUpdate, canDelete, logoSrc } = loaderData;
  const { stock } = row;
  const here = `/uip-stock/${stock.ticker}` satisfies Href;
  return (
    <EditStockForm
      here={here}
      formId={`edit-uip-stock-${stock.ticker}`}
      listPath={"/uip-stocks" satisfies Href}
      schema={EDIT_UIP_STOCK_FORM}
      row={row}
      logoSrc={logoSrc}
      reply={actionData}
      badge={<CategoryBadge category={row.category} />}
      note={
        canUpdate ? null : (
          <p className="uip-form-note" role="note">
            {messages.uipViewOnly}
          </p>
        )
      }
      category={{ choices: categories, current: row.category_id }}
      canDelete={canDelete}
      deleteDialog={
        <DeleteFromEditPage action={"/uip-stocks" satisfies Href} here={here} row={row}>
          <p>
            {stock.name} ({stock.ticker}) will be removed from the UIP list for everyone, with everyone&apos;s price
            alerts for it.
          </p>
        </DeleteFromEditPage>
      }
    />
  );
}

export const meta = editPageMeta;
