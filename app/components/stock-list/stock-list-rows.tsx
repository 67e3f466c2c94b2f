import type { Href } from "#app/lib/href.ts";
import { memo, useMemo, type ComponentProps, type ReactNode, type RefObject } from "react";
import { Link, useNavigate } from "react-router";
import { StockRow, type StockRowProps } from "#app/components/stock-row.tsx";
import type { ListRow } from "./list-row.ts";
import { MoveButtons } from "#app/components/reorder-controls.tsx";
import { RowToggle, RowToggleForms } from "#app/components/row-toggle.tsx";
import { OPENED_HERE } from "#app/components/confirm-dialog.tsx";
import { EditIcon, GripIcon, TrashIcon } from "#app/components/icons.tsx";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";
import { logoUrl } from "#app/lib/logo.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { useAskToDelete } from "./delete-stock.tsx";

/** What a row of either list carries. */

/** A list's own parts of a row: its switch, its badge, its swipe right and its first panel links. */
interface RowExtras {
  /** The row's on/off control, posted to the list's action (the list's `toggleIntent`) with the row's id. */
  toggle: Pick<ComponentProps<typeof RowToggle>, "checked" | "label" | "caption" | "appearance" | "children">;
  badge?: ReactNode;
  swipeRight?: StockRowProps["swipeRight"];
  panel?: ReactNode;
}

/** What the rows read of the page's list state (useStockList). */
interface ListRowsState {
  reordering: boolean;
  now: number;
  listUrl: (change?: (params: URLSearchParams) => void) => string;
  expanded: string | null;
  setExpanded: (change: (current: string | null) => string | null) => void;
  draft: { listRef: RefObject<HTMLUListElement | null>; move: (id: number, direction: "up" | "down") => void };
}

/** What every row of one list shares: kept as one object while none of it changes, so rows can skip renders. */
interface RowsShared<Row extends ListRow> {
  listUrl: ListRowsState["listUrl"];
  setExpanded: ListRowsState["setExpanded"];
  navigate: ReturnType<typeof useNavigate>;
  askToDelete: (ticker: string) => void;
  /** The arrows' move, in reorder mode with JavaScript. */
  onMove: ((id: number, direction: "up" | "down") => void) | undefined;
  extras: (row: Row) => RowExtras;
  logoTemplate: string | null;
  editBase: Href;
  canEdit: boolean;
  canDelete: boolean;
}

/**
 * The rows of a stock list (watchlist or UIP): one expanded at a time (without JavaScript the URL
 * names it), long press and the panel's Edit open the edit screen, swipe left asks to delete, and in
 * reorder mode a drag handle and arrows (docs/product.md#screens-watchlist, #states-lists).
 * Each row renders again only when its own data or what the rows share changes: a live quote
 * renders the row it moves, not the list (ADR 0055). `extras` should keep its identity between
 * renders (useCallback) for that. The rows' switches post the two forms written before the list
 * (ADR 0060), so a page holds one such list.
 */
export function StockListRows<Row extends ListRow>({
  list,
  rows,
  label,
  hintId,
  logoTemplate,
  editBase,
  canEdit,
  canDelete,
  extras,
  toggleIntent,
}: {
  /** The page's list state (app/hooks/use-stock-list.ts). */
  list: ListRowsState;
  rows: readonly Row[];
  label: string;
  hintId: string;
  logoTemplate: string | null;
  /** The edit screen's path up to the ticker ("/user-stock/", checked against the route table; ADR 0100). */
  editBase: Href;
  canEdit: boolean;
  canDelete: boolean;
  extras: (row: Row) => RowExtras;
  /** The intent each row's switch posts ("toggle", "alert"). */
  toggleIntent: string;
}) {
  const { reordering, now, listUrl, expanded, setExpanded } = list;
  const { listRef, move } = list.draft;
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const askToDelete = useAskToDelete(canDelete, listUrl);
  const onMove = reordering && hydrated ? move : undefined;
  const shared = useMemo<RowsShared<Row>>(
    () => ({ listUrl, setExpanded, navigate, askToDelete, onMove, extras, logoTemplate, editBase, canEdit, canDelete }),
    [listUrl, setExpanded, navigate, askToDelete, onMove, extras, logoTemplate, editBase, canEdit, canDelete],
  );
  return (
    <>
      <RowToggleForms action={listUrl()} intent={toggleIntent} />
      <ul
        className="stock-list"
        ref={listRef}
        aria-label={label}
        aria-describedby={reordering ? hintId : undefined}
        data-reordering={reordering || undefined}
        data-ready={hydrated || undefined}
      >
        {rows.map((row, index) => (
          <ListRowItem
            key={row.id}
            row={row}
            open={!reordering && expanded === row.stock.ticker}
            reordering={reordering}
            first={index === 0}
            last={index === rows.length - 1}
            now={now}
            toggleIntent={toggleIntent}
            shared={shared as RowsShared<ListRow>}
          />
        ))}
      </ul>
    </>
  );
}

/** One row of StockListRows, its props all data or shared (memo compares them one by one). */
const ListRowItem = memo(function ListRowItem({
  row,
  open,
  reordering,
  first,
  last,
  now,
  toggleIntent,
  shared,
}: {
  row: ListRow;
  open: boolean;
  reordering: boolean;
  first: boolean;
  last: boolean;
  now: number;
  toggleIntent: string;
  shared: RowsShared<ListRow>;
}) {
  const { listUrl, setExpanded, navigate, askToDelete, onMove, extras, logoTemplate, editBase, canEdit, canDelete } =
    shared;
  const ticker = row.stock.ticker;
  const extra = extras(row);
  return (
    <StockRow
      stock={row.stock}
      averageIv={row.average_iv}
      levels={[row.buy_level_one, row.buy_level_two, row.buy_level_three, row.buy_level_four]}
      logoSrc={logoUrl(logoTemplate, ticker)}
      now={now}
      expanded={open}
      expandHref={listUrl((p) => (open ? p.delete(LIST_PARAM.open) : p.set(LIST_PARAM.open, ticker)))}
      onToggleExpanded={() => setExpanded((current) => (current === ticker ? null : ticker))}
      onLongPress={() => void navigate(`${editBase}${ticker}`)}
      swipeLeft={{ label: "Delete", icon: <TrashIcon />, tone: "danger", onSwipe: () => askToDelete(ticker) }}
      swipeRight={extra.swipeRight}
      badge={extra.badge}
      aside={<RowToggle action={listUrl()} intent={toggleIntent} row={{ id: row.id, ticker }} {...extra.toggle} />}
      panel={
        <>
          {extra.panel}
          {canEdit ? (
            <Link to={`${editBase}${ticker}`} className="button">
              <EditIcon /> Edit
            </Link>
          ) : null}
          {canDelete ? (
            <Link
              to={listUrl((p) => p.set(LIST_PARAM.delete, ticker))}
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
              handle: <DragHandle />,
              controls: (
                <MoveButtons
                  id={row.id}
                  ticker={ticker}
                  first={first}
                  last={last}
                  onMove={onMove ? (direction) => onMove(row.id, direction) : undefined}
                />
              ),
            }
          : null
      }
    />
  );
});

/**
 * A row's drag handle in reorder mode, once the page is hydrated (dragging needs JavaScript). It
 * asks for itself: a row that read whether the page is hydrated would render again when hydration
 * ends, and a 50-row list would render every row a second time for nothing (ADR 0055).
 */
function DragHandle() {
  return useHydrated() ? (
    <span className="drag-handle" aria-hidden="true" title="Drag to reorder">
      <GripIcon />
    </span>
  ) : null;
}
