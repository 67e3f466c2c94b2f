import type { Href } from "#app/lib/href.ts";
import { Form, Link, useLoaderData } from "react-router";
import type { Route } from "./+types/route";
import { changeWatchlist, loadWatchlist } from "./server.ts";
import type { Intent } from "./route.offline.ts";
import type { WatchlistRow } from "#app/lib/list-row-data.ts";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";
import { messages } from "#app/lib/messages.ts";
import { LogoutIcon, PlusIcon, ReorderIcon } from "#app/components/icons.tsx";
import { ListHeader } from "#app/components/stock-list/list-header.tsx";
import { ListNotices } from "#app/components/stock-list/list-notices.tsx";
import { ListSearch } from "#app/components/stock-list/list-search.tsx";
import { StockListRows } from "#app/components/stock-list/stock-list-rows.tsx";
import { DeleteStockDialog } from "#app/components/stock-list/delete-stock.tsx";
import { shouldRevalidateList } from "#app/components/stock-list/list-state.ts";
import { useStockList } from "#app/hooks/use-stock-list.ts";

const LIST_PATH = "/user-stocks" satisfies Href;
/** The search box: what it holds at hydration is where the search starts (ADR 0084). */
const WATCHLIST_SEARCH_ID = "watchlist-search";

/** A watchlist row's own part: its recommendation switch (one function for every render, ADR 0055). */
const watchlistExtras = (row: WatchlistRow) => ({
  toggle: {
    checked: row.generate_recommendation,
    label: `Recommendations for ${row.stock.ticker}`,
    caption: "Recs",
  },
});

export async function loader(args: Route.LoaderArgs) {
  return loadWatchlist(args);
}

export async function action(args: Route.ActionArgs) {
  return changeWatchlist(args);
}

export const shouldRevalidate = shouldRevalidateList;

export default function UserStocks() {
  const loaded = useLoaderData<typeof loader>();
  const { error, canDelete, logoTemplate } = loaded;
  const list = useStockList(LIST_PATH, loaded, true, WATCHLIST_SEARCH_ID);
  const { stocks, search, shownQuery, listUrl, reordering } = list;
  const rows = list.shown();
  const deleteTicker = list.searchParams.get(LIST_PARAM.delete);
  const toDelete = deleteTicker ? stocks.find((s) => s.stock.ticker === deleteTicker.toUpperCase()) : undefined;

  return (
    <>
      <ListHeader
        list={list}
        title="My Watchlist"
        spinnerLabel="Loading the watchlist"
        actions={
          <>
            <Link
              to={"/add-user-stock" satisfies Href}
              className="icon-button"
              aria-label="Add stock"
              title="Add stock"
            >
              <PlusIcon />
            </Link>
            <Link
              to={listUrl((p) => {
                p.set(LIST_PARAM.reorder, "1");
                p.delete(LIST_PARAM.open);
              })}
              preventScrollReset
              className="icon-button"
              aria-label="Reorder"
              title="Reorder"
              onClick={() => list.setExpanded(null)}
            >
              <ReorderIcon />
            </Link>
          </>
        }
        end={
          <Form method="post" action={"/logout" satisfies Href}>
            <button type="submit" className="icon-button" aria-label="Log out" title="Log out">
              <LogoutIcon />
            </button>
          </Form>
        }
      />

      {reordering ? (
        <p className="list-hint" id="reorder-hint">
          {list.hydrated
            ? "Drag a row by its handle, or use the arrows. Finish Reorder saves the order."
            : "Use the arrows to move a stock; each move is saved."}
        </p>
      ) : (
        <ListSearch
          id={WATCHLIST_SEARCH_ID}
          value={search.query}
          onChange={search.setQuery}
          onEscape={() => search.clear()}
        />
      )}

      <ListNotices
        error={error}
        listed={stocks.length}
        shown={rows.length}
        empty={
          <>
            <p>Your watchlist is empty.</p>
            <Link to={"/add-user-stock" satisfies Href} className="button button--primary">
              <PlusIcon /> Add a stock
            </Link>
          </>
        }
        noMatch={<>No stock in your watchlist matches “{shownQuery}”.</>}
      />

      <StockListRows
        list={list}
        rows={rows}
        label="Watchlist"
        hintId="reorder-hint"
        logoTemplate={logoTemplate}
        editBase={"/user-stock/" satisfies Href}
        canEdit
        canDelete={canDelete}
        toggleIntent={"toggle" satisfies Intent}
        extras={watchlistExtras}
      />

      {deleteTicker ? (
        <DeleteStockDialog row={toDelete} canDelete={canDelete} listUrl={listUrl} notFound={messages.userStockNotFound}>
          {(row) => (
            <p>
              {row.stock.name} ({row.stock.ticker}) will be removed from your watchlist. Your values for it are deleted
              too.
            </p>
          )}
        </DeleteStockDialog>
      ) : null}
    </>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "My Watchlist · PutSeller" }];
