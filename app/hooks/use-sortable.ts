import { useEffect, useRef, type RefObject } from "react";

/**
 * Drag to reorder with sortablejs (docs/architecture.md#decisions), loaded only when `enabled` first turns on, so the
 * list's first load carries none of its code. Sortable moves the DOM node itself; that move is
 * undone at once and reported through `onMove(from, to)`, so React stays the owner of the order.
 */
export function useSortable(
  listRef: RefObject<HTMLElement | null>,
  { enabled, handle, onMove }: { enabled: boolean; handle: string; onMove: (from: number, to: number) => void },
): void {
  const move = useRef(onMove);
  useEffect(() => {
    move.current = onMove;
  }, [onMove]);

  useEffect(() => {
    const list = listRef.current;
    if (!enabled || !list) return;
    let sortable: { destroy(): void } | undefined;
    let cancelled = false;
    void import("sortablejs").then(({ default: Sortable }) => {
      if (cancelled) return;
      sortable = Sortable.create(list, {
        handle,
        animation: 150,
        // The same pointer-driven drag for touch and mouse, with the ghost outside React's list.
        forceFallback: true,
        fallbackOnBody: true,
        fallbackTolerance: 4,
        ghostClass: "is-drag-placeholder",
        chosenClass: "is-drag-chosen",
        dragClass: "is-drag-ghost",
        onStart() {
          list.dataset.dragging = "true";
        },
        onEnd(event) {
          delete list.dataset.dragging;
          const { item, from, oldIndex, newIndex } = event;
          if (oldIndex === undefined || newIndex === undefined || oldIndex === newIndex) return;
          from.removeChild(item);
          from.insertBefore(item, from.children[oldIndex] ?? null);
          move.current(oldIndex, newIndex);
        },
      });
      list.dataset.sortable = "ready";
    });
    return () => {
      cancelled = true;
      sortable?.destroy();
      delete list.dataset.sortable;
    };
  }, [enabled, handle, listRef]);
}
