import type { ReactNode } from "react";
import { LiveStatusBadge } from "#app/components/live-status.tsx";
import { FinishReorder } from "#app/components/reorder-controls.tsx";
import { Spinner } from "#app/components/spinner.tsx";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";
import { WS_STOCK_UPDATES } from "#contract/ws-paths.ts";
import type { StockListState } from "#app/hooks/use-stock-list.ts";

/**
 * A stock list's header (docs/product.md#screens-watchlist, #screens-uip-list): the title with the
 * Live dot, the spinner while the list loads, and the list's own actions, or Finish Reorder in
 * reorder mode.
 */
export function ListHeader({
  list,
  title,
  topId,
  spinnerLabel,
  actions,
  end,
}: {
  list: Pick<StockListState, "busy" | "reordering" | "draft" | "listUrl">;
  title: string;
  /** Makes the header the target of the page's scroll-to-top link. */
  topId?: string;
  spinnerLabel: string;
  /** The actions outside reorder mode. */
  actions: ReactNode;
  /** What follows in every mode (the watchlist's Log out). */
  end?: ReactNode;
}) {
  return (
    <header className="page-header" id={topId} tabIndex={topId ? -1 : undefined}>
      <div className="page-header__title">
        <h1>{title}</h1>
        <LiveStatusBadge path={WS_STOCK_UPDATES} />
      </div>
      <div className="page-header__actions">
        {list.busy ? <Spinner label={spinnerLabel} className="page-header__spinner" /> : null}
        {list.reordering ? (
          <FinishReorder
            order={list.draft.order}
            serverOrder={list.draft.serverOrder}
            doneTo={list.listUrl((p) => p.delete(LIST_PARAM.reorder))}
          />
        ) : (
          actions
        )}
        {end}
      </div>
    </header>
  );
}
