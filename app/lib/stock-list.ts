/** Pure rules of the stock lists (watchlist and UIP): search, reorder, gestures (docs/product.md#screens-uip-list, #states-lists, #constants-gestures). */

/** docs/product.md#constants-timings: search debounce, long press and swipe thresholds. */
export const SEARCH_DEBOUNCE_MS = 300;
export const LONG_PRESS_MS = 500;
export const LONG_PRESS_TOLERANCE_PX = 10;
const SWIPE_HINT_PX = 80;
const SWIPE_ACTION_PX = 100;

/** Rows whose ticker contains the query, case-insensitive; an empty query keeps all (docs/product.md#screens-watchlist). */
export function filterByTicker<T extends { stock: { ticker: string } }>(rows: readonly T[], query: string): T[] {
  const needle = query.trim().toUpperCase();
  if (!needle) return [...rows];
  return rows.filter((row) => row.stock.ticker.toUpperCase().includes(needle));
}

/** The list with the item at `from` moved to `to` (Sortable's oldIndex and newIndex). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length || from === to) return next;
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** The list with `item` moved one place up or down; unchanged at either end or when absent. */
export function moveOne<T>(items: readonly T[], item: T, direction: "up" | "down"): T[] {
  const from = items.indexOf(item);
  if (from === -1) return [...items];
  return moveItem(items, from, direction === "up" ? from - 1 : from + 1);
}

/** docs/product.md#calls-stocks: the reorder body, `{id, sort_order: index, active: 1}` per row. */
export function orderPayload(ids: readonly number[]): { id: number; sort_order: number; active: 1 }[] {
  return ids.map((id, index) => ({ id, sort_order: index, active: 1 as const }));
}

/** Reads "3,1,2" (a posted order) into ids; null when it is not a list of distinct positive integers. */
export function parseOrder(text: unknown): number[] | null {
  if (typeof text !== "string" || text.trim() === "") return null;
  const ids = text.split(",").map((part) => Number(part.trim()));
  if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0)) return null;
  return new Set(ids).size === ids.length ? ids : null;
}

export type SwipeState = "idle" | "hint-left" | "hint-right";

/** docs/product.md#states-lists: the background shows from 80 px of horizontal travel. */
export function swipeState(dx: number): SwipeState {
  if (dx <= -SWIPE_HINT_PX) return "hint-left";
  if (dx >= SWIPE_HINT_PX) return "hint-right";
  return "idle";
}

/** What releasing after `dx` px does: past 100 px left or right, an action; otherwise a snap back. */
export function swipeOutcome(dx: number): "left" | "right" | null {
  if (dx < -SWIPE_ACTION_PX) return "left";
  if (dx > SWIPE_ACTION_PX) return "right";
  return null;
}

/** Long press still counts while the pointer stayed within 10 px of where it went down. */
export function withinTolerance(dx: number, dy: number, tolerance = LONG_PRESS_TOLERANCE_PX): boolean {
  return Math.hypot(dx, dy) < tolerance;
}
