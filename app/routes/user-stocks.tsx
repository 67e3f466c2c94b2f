import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import {
  Form,
  Link,
  redirect,
  useFetchers,
  useLoaderData,
  useNavigate,
  useNavigation,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { toast as showToast } from "#app/lib/toast.ts";
import type { Route } from "./+types/user-stocks";
import { FinishReorder, MoveButtons } from "#app/components/reorder-controls.tsx";
import * as calls from "#contract/calls.ts";
import type { UserStock } from "#contract/entities.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
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
import { hasPermission, requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import { listFailureToast, replyWithToast } from "#app/server/action-reply.server.ts";
import { StockRow } from "#app/components/stock-row.tsx";
import { LiveStatusBadge } from "#app/components/live-status.tsx";
import { useLivePrices } from "#app/hooks/use-live-updates.ts";
import { useAsQueued } from "#app/hooks/use-as-queued.ts";
import { WS_STOCK_UPDATES } from "#contract/ws-paths.ts";
import { RowToggle } from "#app/components/row-toggle.tsx";
import { ConfirmDialog, OPENED_HERE } from "#app/components/confirm-dialog.tsx";
import { Spinner } from "#app/components/spinner.tsx";
import {
  EditIcon,
  GripIcon,
  LogoutIcon,
  PlusIcon,
  ReorderIcon,
  SearchIcon,
  TrashIcon,
} from "#app/components/icons.tsx";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { useNow } from "#app/hooks/use-now.ts";
import { useSortable } from "#app/hooks/use-sortable.ts";

const LIST_PATH = "/user-stocks";
/** The list's URL state: search, the row expanded without JavaScript, reorder mode, the delete step. */
const PARAM = { query: "q", open: "open", reorder: "reorder", delete: "delete" } as const;

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const base = {
    canDelete: hasPermission(user, "USER_STOCK", "DELETE"),
    logoTemplate: appEnv().LOGO_URL_TEMPLATE || null,
    now: Date.now(),
  };
  try {
    const stocks = await userCall(context, calls.listUserStocks, { params: { userId: user.id } });
    return { ...base, stocks: stocks.sort((a, b) => a.sort_order - b.sort_order), error: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { ...base, stocks: [] as UserStock[], error: messages.fetchUserStocksFailed };
  }
}

/** Search, expansion, reorder mode and the delete step live in the URL; changing them needs no new data. */
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

/** The list's address after an action, without the one-off delete step. */
function backTo(requestUrl: string, drop: string[] = []): string {
  const url = new URL(requestUrl);
  for (const name of [PARAM.delete, "index", ...drop]) url.searchParams.delete(name);
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

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const id = positiveId(formData.get("id"));

  if (intent === "toggle") {
    const redirectTo = backTo(request.url);
    const wanted = formData.get("value") === "true";
    try {
      if (!id) throw new ProviderError(422, "Unprocessable Entity", "No stock was named");
      await userCall(context, calls.updateUserStock, { params: { id }, body: { generate_recommendation: wanted } });
      return replyWithToast(formData, {
        ok: true,
        toast: listToast("success", messages.recommendationSettingUpdated),
        redirectTo,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return replyWithToast(formData, {
        ok: false,
        toast: listToast("error", messages.recommendationToggleFailed(error.detail ?? error.statusText)),
        redirectTo,
        status: error.status || 503,
      });
    }
  }

  if (intent === "delete") {
    const redirectTo = backTo(request.url, [PARAM.open]);
    const ticker = sanitizeTicker(String(formData.get("ticker") ?? ""));
    if (!hasPermission(user, "USER_STOCK", "DELETE")) {
      return replyWithToast(formData, {
        ok: false,
        toast: listToast("error", messages.noDeletePermission),
        redirectTo,
        status: 403,
      });
    }
    try {
      if (!id) throw new ProviderError(422, "Unprocessable Entity", "No stock was named");
      await userCall(context, calls.deleteUserStock, { params: { id } });
      return replyWithToast(formData, {
        ok: true,
        toast: listToast("success", messages.deletedFromWatchlist(ticker)),
        redirectTo,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return replyWithToast(formData, {
        ok: false,
        toast: listToast("error", messages.deleteFailed),
        redirectTo,
        status: error.status || 503,
      });
    }
  }

  if (intent === "reorder" || intent === "move") {
    // Finishing leaves reorder mode; a move (the buttons without JavaScript) stays in it.
    const redirectTo = intent === "reorder" ? backTo(request.url, [PARAM.reorder]) : backTo(request.url);
    try {
      const current = (await userCall(context, calls.listUserStocks, { params: { userId: user.id } }))
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
      await userCall(context, calls.reorderUserStocks, { params: { userId: user.id }, body: orderPayload(order) });
      return replyWithToast(formData, {
        ok: true,
        toast: listToast("success", messages.watchlistReordered),
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

export default function UserStocks() {
  const { stocks: loadedStocks, error, canDelete, logoTemplate, now: serverNow } = useLoaderData<typeof loader>();
  // Live prices patched into the loader's rows (docs/product.md#states-live); the rows stay the loader's otherwise.
  const stocks = useAsQueued(useLivePrices(loadedStocks), LIST_PATH);
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const hydrated = useHydrated();
  const now = useNow(serverNow);

  const reordering = searchParams.get(PARAM.reorder) === "1";
  const deleteTicker = searchParams.get(PARAM.delete);
  const urlQuery = searchParams.get(PARAM.query) ?? "";

  // Search: typed text shows at once, the list follows 300 ms later (docs/product.md#constants-timings).
  const [query, setQuery] = useState(urlQuery);
  const [appliedQuery, setAppliedQuery] = useState(urlQuery);
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
    return () => clearTimeout(timer);
  }, [query, appliedQuery, setSearchParams]);

  function clearSearch() {
    setQuery("");
    setAppliedQuery("");
    setSearchParams(
      (params) => {
        params.delete(PARAM.query);
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  }

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
  // Rows that arrived or left meanwhile (live updates) are kept in step with the draft.
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
  const rows = reordering
    ? order.map((id) => byId.get(id)).filter((s): s is UserStock => Boolean(s))
    : filterByTicker(stocks, hydrated ? appliedQuery : urlQuery);

  const listUrl = (change: (params: URLSearchParams) => void) => {
    const params = new URLSearchParams(searchParams);
    change(params);
    const search = params.toString();
    return search ? `${LIST_PATH}?${search}` : LIST_PATH;
  };

  function askToDelete(ticker: string) {
    if (!canDelete) {
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

  const busy =
    (navigation.state === "loading" && navigation.location.pathname === LIST_PATH) ||
    fetchers.some((f) => f.state === "loading");
  const toDelete = deleteTicker ? stocks.find((s) => s.stock.ticker === deleteTicker.toUpperCase()) : undefined;

  return (
    <>
      <header className="page-header">
        <div className="page-header__title">
          <h1>My Watchlist</h1>
          <LiveStatusBadge path={WS_STOCK_UPDATES} />
        </div>
        <div className="page-header__actions">
          {busy ? <Spinner label="Loading the watchlist" className="page-header__spinner" /> : null}
          {reordering ? (
            <FinishReorder order={order} serverOrder={serverOrder} doneTo={listUrl((p) => p.delete(PARAM.reorder))} />
          ) : (
            <>
              <Link to="/add-user-stock" className="icon-button" aria-label="Add stock" title="Add stock">
                <PlusIcon />
              </Link>
              <Link
                to={listUrl((p) => {
                  p.set(PARAM.reorder, "1");
                  p.delete(PARAM.open);
                })}
                preventScrollReset
                className="icon-button"
                aria-label="Reorder"
                title="Reorder"
                onClick={() => setExpanded(null)}
              >
                <ReorderIcon />
              </Link>
            </>
          )}
          <Form method="post" action="/logout">
            <button type="submit" className="icon-button" aria-label="Log out" title="Log out">
              <LogoutIcon />
            </button>
          </Form>
        </div>
      </header>

      {reordering ? (
        <p className="list-hint" id="reorder-hint">
          {hydrated
            ? "Drag a row by its handle, or use the arrows. Finish Reorder saves the order."
            : "Use the arrows to move a stock; each move is saved."}
        </p>
      ) : (
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
          <SearchIcon className="list-search__icon" />
          <label htmlFor="watchlist-search" className="visually-hidden">
            Search by ticker
          </label>
          <input
            id="watchlist-search"
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
                clearSearch();
              }
            }}
          />
          <noscript>
            <button type="submit" className="button">
              Search
            </button>
          </noscript>
        </Form>
      )}

      {error ? (
        <p className="list-error" role="alert">
          {error}
        </p>
      ) : null}

      {!error && stocks.length === 0 ? (
        <div className="list-empty">
          <p>Your watchlist is empty.</p>
          <Link to="/add-user-stock" className="button button--primary">
            <PlusIcon /> Add a stock
          </Link>
        </div>
      ) : null}
      {stocks.length > 0 && rows.length === 0 ? (
        <p className="list-empty" role="status">
          No stock in your watchlist matches “{hydrated ? appliedQuery : urlQuery}”.
        </p>
      ) : null}

      <ul
        className="stock-list"
        ref={listRef}
        aria-label="Watchlist"
        aria-describedby={reordering ? "reorder-hint" : undefined}
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
              onLongPress={() => void navigate(`/user-stock/${ticker}`)}
              swipeLeft={{ label: "Delete", icon: <TrashIcon />, tone: "danger", onSwipe: () => askToDelete(ticker) }}
              aside={
                <RowToggle
                  action={listUrl(() => {})}
                  intent="toggle"
                  fields={{ id: row.id, ticker }}
                  checked={row.generate_recommendation}
                  label={`Recommendations for ${ticker}`}
                  caption="Recs"
                />
              }
              panel={
                <>
                  <Link to={`/user-stock/${ticker}`} className="button">
                    <EditIcon /> Edit
                  </Link>
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
              {toDelete.stock.name} ({toDelete.stock.ticker}) will be removed from your watchlist. Your values for it
              are deleted too.
            </p>
          ) : (
            <p>{messages.userStockNotFound}</p>
          )}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "My Watchlist · PutSeller" }];
