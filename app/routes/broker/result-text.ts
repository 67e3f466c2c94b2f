import type { SyncResult } from "#contract/broker-sync.ts";

/**
 * A sync's result in one line, as the import preview counts lines: "2 trades added, 6 already there,
 * 3 lines not trades", with the refused and the positions opened before the history when there are
 * any. Nothing added reads "Nothing new" first, so a second sync says so plainly.
 */
export function syncResultText(result: SyncResult): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const parts = [
    result.added === 0 ? "Nothing new" : n(result.added, "trade added", "trades added"),
    `${result.already} already there`,
    n(result.not_trades, "line not a trade", "lines not trades"),
  ];
  if (result.refused > 0) parts.push(n(result.refused, "line refused", "lines refused"));
  if (result.openings > 0)
    parts.push(n(result.openings, "position opened before the history", "positions opened before the history"));
  return parts.join(", ");
}
