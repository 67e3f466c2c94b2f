import { ConfirmDialog } from "#app/components/confirm-dialog.tsx";
import type { UipRow } from "#app/lib/list-row-data.ts";
import { formatIv, formatLevel } from "#app/lib/format.ts";
import type { UipIntent as Intent } from "#app/components/stock-list/intents.ts";

/**
 * docs/product.md#states-lists: a UIP row added to the trader's own watchlist with the UIP list's
 * values, after this confirmation (opened by `?add=<ticker>`; it posts the `watchlist` intent).
 */
export function AddToWatchlistDialog({
  row,
  action,
  closeTo,
  notFound,
}: {
  row: UipRow | undefined;
  action: string;
  closeTo: string;
  notFound: string;
}) {
  return (
    <ConfirmDialog
      title={row ? `Add ${row.stock.ticker} to your watchlist?` : "Add to Watchlist"}
      confirmLabel={row ? "Add to Watchlist" : null}
      tone="primary"
      action={action}
      fields={row ? { intent: "watchlist" satisfies Intent, id: row.id, ticker: row.stock.ticker } : {}}
      closeTo={closeTo}
    >
      {row ? (
        <>
          <p>
            {row.stock.name} ({row.stock.ticker}) will be added to your watchlist with the UIP list&apos;s values:
            average intrinsic value {formatIv(row.average_iv)}, buy levels{" "}
            {[row.buy_level_one, row.buy_level_two, row.buy_level_three, row.buy_level_four]
              .map(formatLevel)
              .join(", ")}
            .
          </p>
          <p className="uip-dialog-note">You can change them there; the UIP list stays as it is.</p>
        </>
      ) : (
        <p>{notFound}</p>
      )}
    </ConfirmDialog>
  );
}
