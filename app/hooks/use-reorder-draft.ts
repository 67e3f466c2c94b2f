import { useCallback, useMemo, useRef, useState } from "react";
import { moveItem, moveOne } from "#app/lib/stock-list.ts";
import { useSortable } from "./use-sortable.ts";

/**
 * Reorder mode keeps its own order (a draft) until Finish Reorder saves it; leaving the mode drops
 * it. Rows that arrive or leave meanwhile (live updates) are kept in step with the draft. Rows are
 * dragged by `.drag-handle` once the page runs JavaScript.
 */
export function useReorderDraft<Row extends { id: number }>(
  rows: readonly Row[],
  { reordering, hydrated }: { reordering: boolean; hydrated: boolean },
) {
  const serverOrder = rows.map((row) => row.id).join(",");
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

  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    listRef,
    /** The saved order ("3,1,2") and the drafted one, for Finish Reorder. */
    serverOrder,
    order,
    /** The rows in the drafted order. */
    ordered: order.map((id) => byId.get(id)).filter((row): row is Row => Boolean(row)),
    /** One row one place up or down (the arrows, with JavaScript). */
    move: (id: number, direction: "up" | "down") => setDraft(moveOne(order, id, direction)),
  };
}
