import { useCallback, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { ConfirmDialog, OPENED_HERE } from "#app/components/confirm-dialog.tsx";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { toast as showToast } from "#app/lib/toast.ts";
import type { ListRow } from "./list-row.ts";
import type { UipIntent, WatchlistIntent } from "./intents.ts";

/**
 * Asking to delete a row (a swipe left): the confirmation opens in the URL, or, without the
 * permission, a toast says so and the row snaps back (docs/product.md#states-lists).
 */
export function useAskToDelete(canDelete: boolean, listUrl: (change: (params: URLSearchParams) => void) => string) {
  const navigate = useNavigate();
  return useCallback(
    (ticker: string) => {
      if (!canDelete) {
        showToast(messages.noDeletePermission, {
          type: "error",
          autoClose: TOAST_MS.list,
          toastId: `no-delete-${ticker}`,
        });
        return;
      }
      void navigate(
        listUrl((p) => p.set(LIST_PARAM.delete, ticker)),
        { preventScrollReset: true, state: OPENED_HERE },
      );
    },
    [canDelete, listUrl, navigate],
  );
}

/** The delete confirmation of a list, opened by `?delete=<ticker>`; it posts the list's `delete` intent. */
export function DeleteStockDialog({
  row,
  canDelete,
  listUrl,
  notFound,
  children,
}: {
  row: ListRow | undefined;
  canDelete: boolean;
  listUrl: (change?: (params: URLSearchParams) => void) => string;
  notFound: string;
  /** What deleting `row` removes. */
  children: (row: ListRow) => ReactNode;
}) {
  return (
    <ConfirmDialog
      title={row && canDelete ? `Delete ${row.stock.ticker}?` : "Delete stock"}
      confirmLabel={row && canDelete ? "Delete" : null}
      action={listUrl()}
      fields={
        row ? { intent: "delete" satisfies WatchlistIntent & UipIntent, id: row.id, ticker: row.stock.ticker } : {}
      }
      closeTo={listUrl((p) => p.delete(LIST_PARAM.delete))}
    >
      {!canDelete ? <p>{messages.noDeletePermission}</p> : row ? children(row) : <p>{notFound}</p>}
    </ConfirmDialog>
  );
}
