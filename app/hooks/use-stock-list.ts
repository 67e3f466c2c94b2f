import { useState } from "react";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";
import { filterByTicker } from "#app/lib/stock-list.ts";
import type { ListRow } from "#app/components/stock-list/list-row.ts";
import { useListBusy } from "#app/components/stock-list/list-state.ts";
import { useAsQueued } from "#app/offline/ui.tsx";
import { useDebouncedQuery } from "./use-debounced-query.ts";
import { useHydrated } from "./use-hydrated.ts";
import { useListUrlState } from "./use-list-url-state.ts";
import { useLivePrices } from "./use-live-updates.ts";
import { useReorderDraft } from "./use-reorder-draft.ts";

/**
 * The state every stock list page keeps (watchlist and UIP list): the loader's rows with live
 * prices and the outbox's queued changes (docs/product.md#states-live), the search that follows
 * the typing 300 ms later (docs/product.md#constants-timings), the URL state with its addresses
 * (ADR 9), the expanded row, reorder mode's draft and the header's spinner.
 */
export function useStockList<Row extends ListRow>(
  path: string,
  loaded: { stocks: Row[]; now: number },
  /** Without the permission, `?reorder=1` shows the list as usual. */
  canReorder = true,
  /** The search box's id, whose text at hydration the search starts from (ADR 0084). */
  searchFieldId?: string,
) {
  const hydrated = useHydrated();
  const stocks = useAsQueued(useLivePrices(loaded.stocks), path);
  const search = useDebouncedQuery(LIST_PARAM.query, { fieldId: searchFieldId });
  const url = useListUrlState(path);
  const reordering = canReorder && url.reordering;
  const [expanded, setExpanded] = useState<string | null>(url.searchParams.get(LIST_PARAM.open));
  const draft = useReorderDraft(stocks, { reordering, hydrated });
  const shownQuery = hydrated ? search.appliedQuery : search.urlQuery;
  return {
    stocks,
    hydrated,
    /** The server's clock at render: each row's age text moves on from it by itself (AgeText). */
    now: loaded.now,
    search,
    shownQuery,
    searchParams: url.searchParams,
    listUrl: url.listUrl,
    reordering,
    expanded,
    setExpanded,
    draft,
    busy: useListBusy(path),
    /** The rows shown: the draft's order in reorder mode, else `narrow`'s rows matching the search. */
    shown: (narrow: (rows: Row[]) => Row[] = (rows) => rows) =>
      reordering ? draft.ordered : filterByTicker(narrow(stocks), shownQuery),
  };
}

export type StockListState<Row extends ListRow = ListRow> = ReturnType<typeof useStockList<Row>>;
