import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import {
  Form,
  Link,
  redirect,
  useFetchers,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { toast as showToast } from "#app/lib/toast.ts";
import type { Route } from "./+types/uip-stocks";
import * as calls from "#contract/calls.ts";
import type { Category, UipStock } from "#contract/entities.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { formatIv, formatLevel } from "#app/lib/format.ts";
import { logoUrl } from "#app/lib/logo.ts";
import { ENHANCED_FIELD } from "#app/lib/action-reply.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import {
  filterByTicker,
  moveItem,
  moveOne,
  orderPayload,
  parseOrder,
  SEARCH_DEBOUNCE_MS,
} from "#app/lib/stock-list.ts";
import {
  ALL_CATEGORIES_ID,
  BELOW_IV_ID,
  categoryChips,
  chosenCategory,
  filterByCategory,
  isBelowIv,
} from "#app/lib/uip-list.ts";
import { hasPermission, requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import { listFailureToast, replyWithToast } from "#app/server/action-reply.server.ts";
import { readAiText } from "#app/server/ai-read.server.ts";
import { OFFLINE_SAVE_HEADER } from "#app/lib/offline.ts";
import { StockRow } from "#app/components/stock-row.tsx";
import { LiveStatusBadge } from "#app/components/live-status.tsx";
import { useLivePrices } from "#app/hooks/use-live-updates.ts";
import { useAsQueued } from "#app/hooks/use-as-queued.ts";
import { WS_STOCK_UPDATES } from "#contract/ws-paths.ts";
import { RowToggle } from "#app/components/row-toggle.tsx";
import { ConfirmDialog, OPENED_HERE, openedHere } from "#app/components/confirm-dialog.tsx";
import { Spinner } from "#app/components/spinner.tsx";
import { CategoryBadge } from "#app/components/category-badge.tsx";
import { CategoryChips } from "#app/components/category-chips.tsx";
import { HeaderMenu } from "#app/components/header-menu.tsx";
import { ScrollToTop } from "#app/components/scroll-to-top.tsx";
import { AiAnalysisModal } from "#app/components/ai-analysis-modal.tsx";
import { FinishReorder, MoveButtons } from "#app/components/reorder-controls.tsx";
import {
  BellIcon,
  CloseIcon,
  EditIcon,
  GripIcon,
  ListPlusIcon,
  PlusIcon,
  ReorderIcon,
  SearchIcon,
  SparklesIcon,
  TrashIcon,
} from "#app/components/icons.tsx";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { useNow } from "#app/hooks/use-now.ts";
import { useSortable } from "#app/hooks/use-sortable.ts";

const LIST_PATH = "/uip-stocks";
/** The page's top, for the scroll-to-top link. */
const TOP_ID = "uip-top";
/**
 * The list's URL state (ADR 9): search text and whether the search bar is open, the category chip,
 * the row expanded without JavaScript, reorder mode, and the three modals (delete, add to the
 * watchlist, AI analysis), each naming its ticker.
 */
const PARAM = {
  query: "q",
  search: "search",
  category: "category",
  open: "open",
  reorder: "reorder",
  delete: "delete",
  add: "add",
  ai: "ai",
} as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const url = new URL(request.url);
  const base = {
    canCreate: hasPermission(user, "UIP_STOCK", "CREATE"),
    canUpdate: hasPermission(user, "UIP_STOCK", "UPDATE"),
    canDelete: hasPermission(user, "UIP_STOCK", "DELETE"),
    logoTemplate: appEnv().LOGO_URL_TEMPLATE || null,
    now: Date.now(),
  };
  // A page the server renders with the AI modal open carries the whole text (no JavaScript, or a
  // shared link); the browser's own data loads (…/uip-stocks.data) never wait for it, it streams.
  const aiTicker = sanitizeTicker(url.searchParams.get(PARAM.ai) ?? "");
  // Nor does the copy the service worker saves for offline reading (X-Offline-Save): it would spend
  // one of the trader's AI texts for the minute on a page nobody is looking at (README "Security and limits").
  const analysis =
    aiTicker && !url.pathname.endsWith(".data") && !request.headers.has(OFFLINE_SAVE_HEADER)
      ? readAiText(context, request, calls.stockAnalysis, { ticker: aiTicker }).then((r) => ({
          ticker: aiTicker,
          ...r,
        }))
      : Promise.resolve(null);
  const [stocks, categories, ai] = await Promise.allSettled([
    userCall(context, calls.listUipStocks),
    userCall(context, calls.listCategories),
    analysis,
  ]);
  for (const result of [stocks, categories, ai]) {
    if (result.status === "rejected" && !(result.reason instanceof ProviderError)) throw result.reason;
  }
  // docs/product.md#errors-lists: a failed categories load is only logged; the rows still name their own categories.
  if (categories.status === "rejected") console.error("[uip-stocks] categories failed:", String(categories.reason));
  const rows = stocks.status === "fulfilled" ? [...stocks.value].sort((a, b) => a.sort_order - b.sort_order) : [];
  return {
    ...base,
    stocks: rows,
    categories: categories.status === "fulfilled" ? categories.value : categoriesOfRows(rows),
    error: stocks.status === "fulfilled" ? null : messages.fetchUipStocksFailed,
    analysis: ai.status === "fulfilled" ? ai.value : null,
  };
}

function categoriesOfRows(rows: UipStock[]): Category[] {
  const byId = new Map(rows.map((row) => [row.category.id, row.category]));
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Search, chips, expansion, reorder mode and the modals live in the URL; changing them needs no new data. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  actionStatus,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // A failed action changed nothing; reloading could only lose what is on screen (and its message).
  if (actionStatus !== undefined && actionStatus >= 400) return false;
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
}

/** The list's address after an action, without the one-off modal steps (works for …/uip-stocks.data too). */
function backTo(requestUrl: string, drop: string[] = []): string {
  const url = new URL(requestUrl);
  for (const name of [PARAM.delete, PARAM.add, PARAM.ai, "index", ENHANCED_FIELD, ...drop]) {
    url.searchParams.delete(name);
  }
  const search = url.searchParams.toString();
  return search ? `${LIST_PATH}?${search}` : LIST_PATH;
}

function positiveId(value: FormDataEntryValue | null): number | null {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const listToast = (type: "success" | "error" | "warning" | "info", text: string) => ({
  type,
  text,
  autoClose: TOAST_MS.list,
});

const noStockNamed = () => new ProviderError(422, "Unprocessable Entity", "No stock was named");

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const id = positiveId(formData.get("id"));
  const ticker = sanitizeTicker(String(formData.get("ticker") ?? ""));

  if (intent === "alert") {
    const redirectTo = backTo(request.url);
    const wanted = formData.get("value") === "true";
    try {
      if (!id) throw noStockNamed();
      await userCall(context, calls.setUipPriceAlert, { params: { id }, body: { enabled: wanted } });
      return replyWithToast(formData, {
        ok: true,
        toast: listToast("success", wanted ? messages.priceAlertOn(ticker) : messages.priceAlertOff(ticker)),
        redirectTo,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return replyWithToast(formData, {
        ok: false,
        toast: listToast("error", messages.priceAlertFailed(error.detail ?? error.statusText)),
        redirectTo,
        status: error.status || 503,
      });
    }
  }

  if (intent === "delete") {
    const redirectTo = backTo(request.url, [PARAM.open]);
    if (!hasPermission(user, "UIP_STOCK", "DELETE")) {
      return replyWithToast(formData, {
        ok: false,
        toast: listToast("error", messages.noDeletePermission),
        redirectTo,
        status: 403,
      });
    }
    try {
      if (!id) throw noStockNamed();
      await userCall(context, calls.deleteUipStock, { params: { id } });
      return replyWithToast(formData, {
        ok: true,
        toast: listToast("success", messages.deletedFromUip(ticker)),
        redirectTo,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return replyWithToast(formData, {
        ok: false,
        toast: listToast("error", error.status === 403 ? messages.noDeletePermission : messages.deleteFailed),
        redirectTo,
        status: error.status || 503,
      });
    }
  }

  if (intent === "watchlist") {
    // docs/product.md#states-lists: a swipe right (or the row's button) adds the stock to the user's own watchlist with the UIP values.
    const redirectTo = backTo(request.url);
    try {
      if (!id) throw noStockNamed();
      const row = (await userCall(context, calls.listUipStocks)).find((r) => r.id === id);
      if (!row) throw new ProviderError(404, "Not Found", messages.uipStockNotFound(ticker || `Stock ${id}`));
      const added = await userCall(context, calls.createUserStock, {
        params: { userId: user.id },
        body: {
          base_iv: row.base_iv,
          conservative_iv: row.conservative_iv,
          buy_level_one: row.buy_level_one,
          buy_level_two: row.buy_level_two,
          buy_level_three: row.buy_level_three,
          buy_level_four: row.buy_level_four,
          stock: { ticker: row.stock.ticker, name: row.stock.name, current_price: 0 },
        },
      });
      return replyWithToast(formData, {
        ok: true,
        toast: listToast("success", messages.addedToWatchlist(added.stock.ticker)),
        redirectTo,
      });
    } catch (error) {
      if (error instanceof Response) throw error;
      // docs/product.md#errors-lists: the server's detail as a warning ('AAPL is already in your watchlist'), else 'Error: …'.
      const failure = listFailureToast(error);
      return replyWithToast(formData, {
        ok: false,
        toast: listToast(failure.type, failure.text),
        redirectTo,
        status: error instanceof ProviderError && error.status ? error.status : 500,
      });
    }
  }

  if (intent === "reorder" || intent === "move") {
    // Finishing leaves reorder mode; a move (the buttons without JavaScript) stays in it.
    const redirectTo = intent === "reorder" ? backTo(request.url, [PARAM.reorder]) : backTo(request.url);
    if (!hasPermission(user, "UIP_STOCK", "UPDATE")) {
      return replyWithToast(formData, {
        ok: false,
        toast: listToast("error", messages.notAuthorizedUipReorder),
        redirectTo: backTo(request.url, [PARAM.reorder]),
        status: 403,
      });
    }
    try {
      const current = (await userCall(context, calls.listUipStocks))
        .sort((a, b) => a.sort_order - b.sort_order)
        .map((row) => row.id);
      let order: number[] | null;
      if (intent === "move") {
        const direction = formData.get("direction") === "up" ? "up" : "down";
        order = id ? moveOne(current, id, direction) : null;
      } else {
        order = parseOrder(formData.get("order"));
      }
      if (!order) throw new ProviderError(422, "Unprocessable Entity", "The new order could not be read");
      const unchanged = order.length === current.length && order.every((rowId, i) => rowId === current[i]);
      // Finishing without JavaScript after moves that were each saved already: nothing to send.
      if (unchanged && formData.get(ENHANCED_FIELD) !== "1") return redirect(redirectTo);
      await userCall(context, calls.reorderUipStocks, { body: orderPayload(order) });
      return replyWithToast(formData, {
        ok: true,
        toast: listToast("success", messages.uipReordered),
        redirectTo,
      });
    } catch (error) {
      if (error instanceof Response) throw error;
      const failure = listFailureToast(error);
      return replyWithToast(formData, {
        ok: false,
        toast: listToast(failure.type, failure.text),
        redirectTo: backTo(request.url),
        status: error instanceof ProviderError && error.status ? error.status : 500,
      });
    }
  }

  return replyWithToast(formData, {
    ok: false,
    toast: listToast("error", messages.unknownError),
    redirectTo: backTo(request.url),
    status: 400,
  });
}

export default function UipStocks() {
  const {
    stocks: loadedStocks,
    categories,
    error,
    canCreate,
    canUpdate,
    canDelete,
    logoTemplate,
    analysis,
    now: serverNow,
  } = useLoaderData<typeof loader>();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const location = useLocation();
  const fetchers = useFetchers();
  const hydrated = useHydrated();
  const now = useNow(serverNow);
  // Live prices patched into the loader's rows (docs/product.md#states-live).
  const stocks = useAsQueued(useLivePrices(loadedStocks), LIST_PATH);

  const reordering = canUpdate && searchParams.get(PARAM.reorder) === "1";
  const deleteTicker = searchParams.get(PARAM.delete);
  const addTicker = searchParams.get(PARAM.add);
  const aiTicker = searchParams.get(PARAM.ai) ? sanitizeTicker(searchParams.get(PARAM.ai) ?? "") : null;
  const urlQuery = searchParams.get(PARAM.query) ?? "";
  const searchOpen = !reordering && (searchParams.get(PARAM.search) === "1" || urlQuery !== "");

  const chips = useMemo(() => categoryChips(categories), [categories]);
  const category = chosenCategory(searchParams.get(PARAM.category), chips);

  // Search: typed text shows at once, the list follows 300 ms later (docs/product.md#screens-uip-list, #constants-timings).
  const [query, setQuery] = useState(urlQuery);
  const [appliedQuery, setAppliedQuery] = useState(urlQuery);
  const searchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  /** The list's address with a change; it carries the text typed so far, even before the debounce applies it. */
  const listUrl = (change: (params: URLSearchParams) => void) => {
    const params = new URLSearchParams(searchParams);
    if (hydrated) {
      if (query) params.set(PARAM.query, query);
      else params.delete(PARAM.query);
    }
    change(params);
    const search = params.toString();
    return search ? `${LIST_PATH}?${search}` : LIST_PATH;
  };
  /** Before following a link of the page: the typed text is in its address, so a pending debounce must not write the old one. */
  function applyQueryNow() {
    clearTimeout(searchTimer.current);
    setAppliedQuery(query);
  }

  useEffect(() => {
    if (query === appliedQuery) return;
    const timer = setTimeout(() => {
      setAppliedQuery(query);
      setSearchParams(
        (params) => {
          if (query) params.set(PARAM.query, query);
          else params.delete(PARAM.query);
          return params;
        },
        { replace: true, preventScrollReset: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    searchTimer.current = timer;
    return () => clearTimeout(timer);
  }, [query, appliedQuery, setSearchParams]);

  /** docs/product.md#screens-uip-list: Escape (or the toggle) closes the search and clears it. */
  function closeSearch() {
    setQuery("");
    setAppliedQuery("");
    setSearchParams(
      (params) => {
        params.delete(PARAM.query);
        params.delete(PARAM.search);
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  }
  // Opening the search by its toggle puts the cursor in it (not on a page load: no keyboard popping up).
  const focusSearch = useRef(false);
  const searchInputRef = useCallback((input: HTMLInputElement | null) => {
    if (input && focusSearch.current) {
      focusSearch.current = false;
      input.focus();
    }
  }, []);

  // One expanded row at a time; without JavaScript the URL names it.
  const [expanded, setExpanded] = useState<string | null>(searchParams.get(PARAM.open));

  // Reorder mode keeps its own order (a draft) until Finish Reorder saves it; leaving the mode drops it.
  const serverOrder = stocks.map((s) => s.id).join(",");
  const serverIds = useMemo(() => (serverOrder ? serverOrder.split(",").map(Number) : []), [serverOrder]);
  const [draft, setDraft] = useState<number[] | null>(null);
  const [draftMode, setDraftMode] = useState(reordering);
  if (draftMode !== reordering) {
    setDraftMode(reordering);
    setDraft(null);
  }
  const order = draft
    ? [...draft.filter((id) => serverIds.includes(id)), ...serverIds.filter((id) => !draft.includes(id))]
    : serverIds;
  const listRef = useRef<HTMLUListElement>(null);
  const onDragMove = useCallback(
    (from: number, to: number) => setDraft((current) => moveItem(current ?? serverIds, from, to)),
    [serverIds],
  );
  useSortable(listRef, { enabled: reordering && hydrated, handle: ".drag-handle", onMove: onDragMove });

  const byId = new Map(stocks.map((s) => [s.id, s]));
  const shownQuery = hydrated ? appliedQuery : urlQuery;
  const rows = reordering
    ? order.map((id) => byId.get(id)).filter((s): s is UipStock => Boolean(s))
    : filterByTicker(filterByCategory(stocks, category), shownQuery);

  const counts = useMemo(() => {
    const map = new Map<number, number>([
      [ALL_CATEGORIES_ID, stocks.length],
      [BELOW_IV_ID, stocks.filter(isBelowIv).length],
    ]);
    for (const row of stocks) map.set(row.category_id, (map.get(row.category_id) ?? 0) + 1);
    return map;
  }, [stocks]);

  function askToDelete(ticker: string) {
    if (!canDelete) {
      // docs/product.md#states-lists: without UIP_STOCK DELETE the swipe says so and the row snaps back.
      showToast(messages.noDeletePermission, {
        type: "error",
        autoClose: TOAST_MS.list,
        toastId: `no-delete-${ticker}`,
      });
      return;
    }
    void navigate(
      listUrl((p) => p.set(PARAM.delete, ticker)),
      { preventScrollReset: true, state: OPENED_HERE },
    );
  }

  function askToAdd(ticker: string) {
    void navigate(
      listUrl((p) => p.set(PARAM.add, ticker)),
      { preventScrollReset: true, state: OPENED_HERE },
    );
  }

  /** Leaves a URL-addressed modal: back in history when it was opened here, else to the list without it. */
  function closeModal(param: string) {
    if (openedHere(location.state)) void navigate(-1);
    else
      void navigate(
        listUrl((p) => p.delete(param)),
        { replace: true, preventScrollReset: true },
      );
  }

  const busy =
    (navigation.state === "loading" && navigation.location.pathname === LIST_PATH) ||
    fetchers.some((f) => f.state === "loading");
  const find = (ticker: string | null) =>
    ticker ? stocks.find((s) => s.stock.ticker === sanitizeTicker(ticker)) : undefined;
  const toDelete = find(deleteTicker);
  const toAdd = find(addTicker);
  const chipName = chips.find((c) => c.id === category)?.name ?? "";

  return (
    <>
      <header className="page-header" id={TOP_ID} tabIndex={-1}>
        <div className="page-header__title">
          <h1>UIP Stocks</h1>
          <LiveStatusBadge path={WS_STOCK_UPDATES} />
        </div>
        <div className="page-header__actions">
          {busy ? <Spinner label="Loading UIP stocks" className="page-header__spinner" /> : null}
          {reordering ? (
            <FinishReorder order={order} serverOrder={serverOrder} doneTo={listUrl((p) => p.delete(PARAM.reorder))} />
          ) : (
            <>
              <Link
                to={listUrl((p) => {
                  if (searchOpen) {
                    p.delete(PARAM.search);
                    p.delete(PARAM.query);
                  } else {
                    p.set(PARAM.search, "1");
                  }
                })}
                replace
                preventScrollReset
                className="icon-button"
                aria-label={searchOpen ? "Close search" : "Search"}
                title={searchOpen ? "Close search" : "Search"}
                onClick={(event) => {
                  if (!searchOpen) {
                    focusSearch.current = true;
                    return;
                  }
                  event.preventDefault();
                  closeSearch();
                }}
              >
                {searchOpen ? <CloseIcon /> : <SearchIcon />}
              </Link>
              {canCreate || canUpdate ? (
                <HeaderMenu label="Menu">
                  {canCreate ? (
                    <Link to="/add-uip-stock" className="uip-menu__item">
                      <PlusIcon /> Add Stock
                    </Link>
                  ) : null}
                  {canUpdate ? (
                    <Link
                      to={listUrl((p) => {
                        p.set(PARAM.reorder, "1");
                        for (const name of [PARAM.open, PARAM.query, PARAM.search, PARAM.category]) p.delete(name);
                      })}
                      preventScrollReset
                      className="uip-menu__item"
                      onClick={() => {
                        setExpanded(null);
                        setQuery("");
                        setAppliedQuery("");
                      }}
                    >
                      <ReorderIcon /> Reorder
                    </Link>
                  ) : null}
                </HeaderMenu>
              ) : null}
            </>
          )}
        </div>
      </header>

      {searchOpen ? (
        <Form
          method="get"
          role="search"
          className="list-search"
          onSubmit={(event: FormEvent) => {
            // The list already follows the typing; Enter just puts the phone's keyboard away.
            if (!hydrated) return;
            event.preventDefault();
            (document.activeElement as HTMLElement | null)?.blur();
          }}
        >
          <input type="hidden" name={PARAM.search} value="1" />
          {category !== ALL_CATEGORIES_ID ? <input type="hidden" name={PARAM.category} value={category} /> : null}
          <SearchIcon className="list-search__icon" />
          <label htmlFor="uip-search" className="visually-hidden">
            Search by ticker
          </label>
          <input
            id="uip-search"
            ref={searchInputRef}
            name={PARAM.query}
            type="search"
            placeholder="Search by ticker"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
              if (event.key === "Escape") {
                event.preventDefault();
                closeSearch();
              }
            }}
          />
          <noscript>
            <button type="submit" className="button">
              Search
            </button>
          </noscript>
        </Form>
      ) : null}

      {reordering ? (
        <p className="list-hint" id="uip-reorder-hint">
          {hydrated
            ? "Drag a row by its handle, or use the arrows. Finish Reorder saves the order for everyone."
            : "Use the arrows to move a stock; each move is saved for everyone."}
        </p>
      ) : (
        <CategoryChips
          chips={chips}
          chosen={category}
          counts={counts}
          onChoose={applyQueryNow}
          hrefOf={(id) =>
            listUrl((p) => {
              if (id === ALL_CATEGORIES_ID) p.delete(PARAM.category);
              else p.set(PARAM.category, String(id));
              p.delete(PARAM.open);
            })
          }
        />
      )}

      {error ? (
        <p className="list-error" role="alert">
          {error}
        </p>
      ) : null}

      {!error && stocks.length === 0 ? (
        <div className="list-empty">
          <p>The UIP list is empty.</p>
          {canCreate ? (
            <Link to="/add-uip-stock" className="button button--primary">
              <PlusIcon /> Add a stock
            </Link>
          ) : null}
        </div>
      ) : null}
      {stocks.length > 0 && rows.length === 0 ? (
        <p className="list-empty" role="status">
          {shownQuery
            ? `No UIP stock matches “${shownQuery}”${category === ALL_CATEGORIES_ID ? "" : ` in ${chipName}`}.`
            : category === BELOW_IV_ID
              ? "No stock trades below its average IV right now."
              : `No stock in ${chipName} yet.`}
        </p>
      ) : null}

      <ul
        className="stock-list"
        ref={listRef}
        aria-label="UIP stocks"
        aria-describedby={reordering ? "uip-reorder-hint" : undefined}
        data-reordering={reordering || undefined}
        data-ready={hydrated || undefined}
      >
        {rows.map((row, index) => {
          const ticker = row.stock.ticker;
          const isOpen = !reordering && expanded === ticker;
          return (
            <StockRow
              key={row.id}
              stock={row.stock}
              averageIv={row.average_iv}
              levels={[row.buy_level_one, row.buy_level_two, row.buy_level_three, row.buy_level_four]}
              logoSrc={logoUrl(logoTemplate, ticker)}
              now={now}
              expanded={isOpen}
              expandHref={listUrl((p) => (isOpen ? p.delete(PARAM.open) : p.set(PARAM.open, ticker)))}
              onToggleExpanded={() => setExpanded((current) => (current === ticker ? null : ticker))}
              onLongPress={() => void navigate(`/uip-stock/${ticker}`)}
              swipeLeft={{ label: "Delete", icon: <TrashIcon />, tone: "danger", onSwipe: () => askToDelete(ticker) }}
              swipeRight={{
                label: "Add to Watchlist",
                icon: <ListPlusIcon />,
                tone: "positive",
                onSwipe: () => askToAdd(ticker),
              }}
              badge={<CategoryBadge category={row.category} />}
              aside={
                <RowToggle
                  action={listUrl(() => {})}
                  intent="alert"
                  fields={{ id: row.id, ticker }}
                  checked={row.price_alert}
                  label={`Price alerts for ${ticker}`}
                  appearance="icon"
                  caption="Alert"
                >
                  <BellIcon className="uip-bell" />
                </RowToggle>
              }
              panel={
                <>
                  <Link
                    to={listUrl((p) => p.set(PARAM.ai, ticker))}
                    preventScrollReset
                    state={OPENED_HERE}
                    className="button"
                  >
                    <SparklesIcon /> AI analysis
                  </Link>
                  <Link
                    to={listUrl((p) => p.set(PARAM.add, ticker))}
                    preventScrollReset
                    state={OPENED_HERE}
                    className="button"
                  >
                    <ListPlusIcon /> Add to Watchlist
                  </Link>
                  {canUpdate ? (
                    <Link to={`/uip-stock/${ticker}`} className="button">
                      <EditIcon /> Edit
                    </Link>
                  ) : null}
                  {canDelete ? (
                    <Link
                      to={listUrl((p) => p.set(PARAM.delete, ticker))}
                      preventScrollReset
                      state={OPENED_HERE}
                      className="button button--danger-outline"
                    >
                      <TrashIcon /> Delete
                    </Link>
                  ) : null}
                </>
              }
              reorder={
                reordering
                  ? {
                      handle: hydrated ? (
                        <span className="drag-handle" aria-hidden="true" title="Drag to reorder">
                          <GripIcon />
                        </span>
                      ) : null,
                      controls: (
                        <MoveButtons
                          id={row.id}
                          ticker={ticker}
                          first={index === 0}
                          last={index === rows.length - 1}
                          onMove={hydrated ? (direction) => setDraft(moveOne(order, row.id, direction)) : undefined}
                        />
                      ),
                    }
                  : null
              }
            />
          );
        })}
      </ul>

      <ScrollToTop targetId={TOP_ID} />

      {deleteTicker ? (
        <ConfirmDialog
          title={toDelete && canDelete ? `Delete ${toDelete.stock.ticker}?` : "Delete stock"}
          confirmLabel={toDelete && canDelete ? "Delete" : null}
          action={listUrl(() => {})}
          fields={toDelete ? { intent: "delete", id: toDelete.id, ticker: toDelete.stock.ticker } : {}}
          closeTo={listUrl((p) => p.delete(PARAM.delete))}
        >
          {!canDelete ? (
            <p>{messages.noDeletePermission}</p>
          ) : toDelete ? (
            <p>
              {toDelete.stock.name} ({toDelete.stock.ticker}) will be removed from the UIP list for everyone, with
              everyone&apos;s price alerts for it.
            </p>
          ) : (
            <p>{messages.uipStockNotFound(sanitizeTicker(deleteTicker))}</p>
          )}
        </ConfirmDialog>
      ) : null}

      {addTicker ? (
        <ConfirmDialog
          title={toAdd ? `Add ${toAdd.stock.ticker} to your watchlist?` : "Add to Watchlist"}
          confirmLabel={toAdd ? "Add to Watchlist" : null}
          tone="primary"
          action={listUrl(() => {})}
          fields={toAdd ? { intent: "watchlist", id: toAdd.id, ticker: toAdd.stock.ticker } : {}}
          closeTo={listUrl((p) => p.delete(PARAM.add))}
        >
          {toAdd ? (
            <>
              <p>
                {toAdd.stock.name} ({toAdd.stock.ticker}) will be added to your watchlist with the UIP list&apos;s
                values: average IV {formatIv(toAdd.average_iv)}, buy levels{" "}
                {[toAdd.buy_level_one, toAdd.buy_level_two, toAdd.buy_level_three, toAdd.buy_level_four]
                  .map(formatLevel)
                  .join(", ")}
                .
              </p>
              <p className="uip-dialog-note">You can change them there; the UIP list stays as it is.</p>
            </>
          ) : (
            <p>{messages.uipStockNotFound(sanitizeTicker(addTicker))}</p>
          )}
        </ConfirmDialog>
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
