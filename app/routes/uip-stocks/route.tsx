import type { Href } from "#app/lib/href.ts";
import { useCallback, useMemo, useRef } from "react";
import { Link, useLoaderData, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/route";
import { changeUipList, loadUipList } from "./server.ts";
import type { Intent } from "./route.offline.ts";
import type { UipRow } from "#app/lib/list-row-data.ts";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";
import { messages } from "#app/lib/messages.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import {
  ALL_CATEGORIES_ID,
  BELOW_IV_ID,
  categoryChips,
  chosenCategory,
  filterByCategory,
  isBelowIv,
} from "./uip-list.ts";
import { OPENED_HERE, openedHere } from "#app/components/confirm-dialog.tsx";
import { CategoryBadge } from "#app/components/category-badge.tsx";
import { CategoryChips } from "./components/category-chips.tsx";
import { ScrollToTop } from "./components/scroll-to-top.tsx";
import { AiAnalysisModal } from "./components/ai-analysis-modal.tsx";
import { ListPlusIcon, PlusIcon, SparklesIcon } from "#app/components/icons.tsx";
import { UipBellIcon, UipRowIconSprite } from "#app/components/uip-row-icons.tsx";
import { ListHeader } from "#app/components/stock-list/list-header.tsx";
import { ListNotices } from "#app/components/stock-list/list-notices.tsx";
import { ListSearch } from "#app/components/stock-list/list-search.tsx";
import { StockListRows } from "#app/components/stock-list/stock-list-rows.tsx";
import { DeleteStockDialog } from "#app/components/stock-list/delete-stock.tsx";
import { AddToWatchlistDialog } from "./components/add-to-watchlist-dialog.tsx";
import { UipHeaderActions } from "./components/uip-header-actions.tsx";
import { shouldRevalidateList } from "#app/components/stock-list/list-state.ts";
import { useStockList } from "#app/hooks/use-stock-list.ts";

const LIST_PATH = "/uip-stocks" satisfies Href;
/** The search box: what it holds at hydration is where the search starts (ADR 0084). */
const UIP_SEARCH_ID = "uip-search";
/** The page's top, for the scroll-to-top link. */
const TOP_ID = "uip-top";
const PARAM = LIST_PARAM;

export async function loader(args: Route.LoaderArgs) {
  return loadUipList(args);
}

export async function action(args: Route.ActionArgs) {
  return changeUipList(args);
}

export const shouldRevalidate = shouldRevalidateList;

export default function UipStocks() {
  const loaded = useLoaderData<typeof loader>();
  const { categories, error, canCreate, canUpdate, canDelete, logoTemplate, analysis } = loaded;
  const navigate = useNavigate();
  const location = useLocation();
  // Search: typed text shows at once, the list follows 300 ms later (docs/product.md#screens-uip-list, #constants-timings).
  const shared = useStockList(LIST_PATH, loaded, canUpdate, UIP_SEARCH_ID);
  const { stocks, search, shownQuery, searchParams, reordering } = shared;
  // Every address of the page carries the text typed so far, even before the debounce applies it.
  // Only text the URL does not hold yet changes them: the addresses (and every row built with them,
  // ADR 0055) keep their identity when hydration ends.
  const { listUrl: addressOf } = shared;
  const typed = search.query !== search.urlQuery ? search.query : null;
  const listUrl = useCallback(
    (change: (params: URLSearchParams) => void = () => {}) =>
      addressOf((params) => {
        if (typed !== null) {
          if (typed) params.set(PARAM.query, typed);
          else params.delete(PARAM.query);
        }
        change(params);
      }),
    [addressOf, typed],
  );
  const list = { ...shared, listUrl };
  const deleteTicker = searchParams.get(PARAM.delete);
  const addTicker = searchParams.get(PARAM.add);
  const aiTicker = searchParams.get(PARAM.ai) ? sanitizeTicker(searchParams.get(PARAM.ai) ?? "") : null;
  const searchOpen = !reordering && (searchParams.get(PARAM.search) === "1" || search.urlQuery !== "");

  const chips = useMemo(() => categoryChips(categories), [categories]);
  const category = chosenCategory(searchParams.get(PARAM.category), chips);

  /** docs/product.md#screens-uip-list: Escape (or the toggle) closes the search and clears it. */
  const closeSearch = () => search.clear([PARAM.search]);
  // Opening the search by its toggle puts the cursor in it (not on a page load: no keyboard popping up).
  const focusSearch = useRef(false);
  const searchInputRef = useCallback((input: HTMLInputElement | null) => {
    if (input && focusSearch.current) {
      focusSearch.current = false;
      input.focus();
    }
  }, []);

  const rows = list.shown((all) => filterByCategory(all, category));

  const counts = useMemo(() => {
    const map = new Map<number, number>([
      [ALL_CATEGORIES_ID, stocks.length],
      [BELOW_IV_ID, stocks.filter(isBelowIv).length],
    ]);
    for (const row of stocks) map.set(row.category_id, (map.get(row.category_id) ?? 0) + 1);
    return map;
  }, [stocks]);

  /** Leaves a URL-addressed modal: back in history when it was opened here, else to the list without it. */
  function closeModal(param: string) {
    if (openedHere(location.state)) void navigate(-1);
    else
      void navigate(
        listUrl((p) => p.delete(param)),
        { replace: true, preventScrollReset: true },
      );
  }

  const find = (ticker: string | null) =>
    ticker ? stocks.find((s) => s.stock.ticker === sanitizeTicker(ticker)) : undefined;
  const chipName = chips.find((c) => c.id === category)?.name ?? "";
  /** A UIP row's own parts: swipe right to add, the category, the bell, AI analysis (ADR 0055: one function while the URL stays). */
  const extras = useCallback(
    (row: UipRow) => {
      const modalLink = (param: string) => ({
        to: listUrl((p) => p.set(param, row.stock.ticker)),
        preventScrollReset: true,
        state: OPENED_HERE,
        className: "button",
      });
      return {
        swipeRight: {
          label: "Add to Watchlist",
          icon: <ListPlusIcon />,
          tone: "positive" as const,
          onSwipe: () => void navigate(modalLink(PARAM.add).to, { preventScrollReset: true, state: OPENED_HERE }),
        },
        badge: <CategoryBadge category={row.category} fromSprite />,
        toggle: {
          checked: row.price_alert,
          label: `Price alerts for ${row.stock.ticker}`,
          appearance: "icon" as const,
          caption: "Alert",
          children: <UipBellIcon />,
        },
        panel: (
          <>
            <Link {...modalLink(PARAM.ai)}>
              <SparklesIcon /> AI analysis
            </Link>
            <Link {...modalLink(PARAM.add)}>
              <ListPlusIcon /> Add to Watchlist
            </Link>
          </>
        ),
      };
    },
    [listUrl, navigate],
  );

  return (
    <>
      <ListHeader
        list={list}
        title="UIP Stocks"
        topId={TOP_ID}
        spinnerLabel="Loading UIP stocks"
        actions={
          <UipHeaderActions
            searchOpen={searchOpen}
            canCreate={canCreate}
            canUpdate={canUpdate}
            listUrl={listUrl}
            onOpenSearch={() => (focusSearch.current = true)}
            onCloseSearch={closeSearch}
            onReorder={() => {
              list.setExpanded(null);
              search.setQuery("");
              search.setAppliedQuery("");
            }}
          />
        }
      />

      {searchOpen ? (
        <ListSearch
          id={UIP_SEARCH_ID}
          inputRef={searchInputRef}
          value={search.query}
          onChange={search.setQuery}
          onEscape={closeSearch}
        >
          <input type="hidden" name={PARAM.search} value="1" />
          {category !== ALL_CATEGORIES_ID ? <input type="hidden" name={PARAM.category} value={category} /> : null}
        </ListSearch>
      ) : null}

      {reordering ? (
        <p className="list-hint" id="uip-reorder-hint">
          {list.hydrated
            ? "Drag a row by its handle, or use the arrows. Finish Reorder saves the order for everyone."
            : "Use the arrows to move a stock; each move is saved for everyone."}
        </p>
      ) : (
        <CategoryChips
          chips={chips}
          chosen={category}
          counts={counts}
          onChoose={() => search.setAppliedQuery(search.query)}
          hrefOf={(id) =>
            listUrl((p) => {
              if (id === ALL_CATEGORIES_ID) p.delete(PARAM.category);
              else p.set(PARAM.category, String(id));
              p.delete(PARAM.open);
            })
          }
        />
      )}

      <ListNotices
        error={error}
        listed={stocks.length}
        shown={rows.length}
        empty={
          <>
            <p>The UIP list is empty.</p>
            {canCreate ? (
              <Link to={"/add-uip-stock" satisfies Href} className="button button--primary">
                <PlusIcon /> Add a stock
              </Link>
            ) : null}
          </>
        }
        noMatch={
          shownQuery
            ? `No UIP stock matches “${shownQuery}”${category === ALL_CATEGORIES_ID ? "" : ` in ${chipName}`}.`
            : category === BELOW_IV_ID
              ? "No stock trades below its average IV right now."
              : `No stock in ${chipName} yet.`
        }
      />

      {/* The rows' category icons and bells draw from it (ADR 0059). */}
      <UipRowIconSprite />
      <StockListRows
        list={list}
        rows={rows}
        label="UIP stocks"
        hintId="uip-reorder-hint"
        logoTemplate={logoTemplate}
        editBase={"/uip-stock/" satisfies Href}
        canEdit={canUpdate}
        canDelete={canDelete}
        toggleIntent={"alert" satisfies Intent}
        extras={extras}
      />

      <ScrollToTop targetId={TOP_ID} />

      {deleteTicker ? (
        <DeleteStockDialog
          row={find(deleteTicker)}
          canDelete={canDelete}
          listUrl={listUrl}
          notFound={messages.uipStockNotFound(sanitizeTicker(deleteTicker))}
        >
          {(row) => (
            <p>
              {row.stock.name} ({row.stock.ticker}) will be removed from the UIP list for everyone, with everyone&apos;s
              price alerts for it.
            </p>
          )}
        </DeleteStockDialog>
      ) : null}

      {addTicker ? (
        <AddToWatchlistDialog
          row={find(addTicker)}
          action={listUrl()}
          closeTo={listUrl((p) => p.delete(PARAM.add))}
          notFound={messages.uipStockNotFound(sanitizeTicker(addTicker))}
        />
      ) : null}

      {aiTicker ? (
        <AiAnalysisModal
          key={aiTicker}
          ticker={aiTicker}
          name={find(aiTicker)?.stock.name}
          serverResult={analysis && analysis.ticker === aiTicker && !openedHere(location.state) ? analysis : null}
          closeTo={listUrl((p) => p.delete(PARAM.ai))}
          onClose={() => closeModal(PARAM.ai)}
        />
      ) : null}
    </>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "UIP Stocks · PutSeller" }];
