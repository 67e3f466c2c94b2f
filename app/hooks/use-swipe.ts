import { useCallback, useRef, useState, type PointerEvent } from "react";
import { swipeOutcome, swipeState, type SwipeState } from "#app/lib/stock-list.ts";

interface SwipeHandlers {
  onPointerDown(event: PointerEvent<HTMLElement>): void;
  onPointerMove(event: PointerEvent<HTMLElement>): void;
  onPointerUp(event: PointerEvent<HTMLElement>): void;
  onPointerCancel(event: PointerEvent<HTMLElement>): void;
}

/** Horizontal travel before a drag counts as a swipe rather than a tap or a scroll. */
const SLOP_PX = 10;
/** How far a row follows the finger towards a side that has no action. */
const NO_ACTION_TRAVEL_PX = 24;

/**
 * docs/product.md#states-lists: a row follows a horizontal drag; the background shows from 80 px; releasing past
 * 100 px calls `onSwipeLeft` or `onSwipeRight`, and the row snaps back either way. Vertical drags
 * are left to the browser (the row sets `touch-action: pan-y`), so the list still scrolls.
 */
export function useSwipe({
  onSwipeLeft,
  onSwipeRight,
  disabled = false,
}: {
  onSwipeLeft?: (() => void) | undefined;
  onSwipeRight?: (() => void) | undefined;
  disabled?: boolean;
}): {
  offset: number;
  state: SwipeState;
  /** True while the row follows the finger (no snap-back transition then). */
  dragging: boolean;
  /** True from the row's first horizontal drag on: what a swipe reveals is drawn from then (kept for the snap back). */
  engaged: boolean;
  handlers: SwipeHandlers;
  consumeClick: () => boolean;
} {
  const [offset, setOffset] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [engaged, setEngaged] = useState(false);
  const gesture = useRef<{ x: number; y: number; id: number; axis: "x" | "y" | null } | null>(null);
  const swiped = useRef(false);

  const clamp = useCallback(
    (dx: number) => {
      if (dx < 0 && !onSwipeLeft) return Math.max(dx, -NO_ACTION_TRAVEL_PX);
      if (dx > 0 && !onSwipeRight) return Math.min(dx, NO_ACTION_TRAVEL_PX);
      return dx;
    },
    [onSwipeLeft, onSwipeRight],
  );

  const reset = () => {
    gesture.current = null;
    setDragging(false);
    setOffset(0);
  };

  const handlers: SwipeHandlers = {
    onPointerDown(event) {
      if (disabled || !event.isPrimary || (event.pointerType === "mouse" && event.button !== 0)) return;
      swiped.current = false;
      gesture.current = { x: event.clientX, y: event.clientY, id: event.pointerId, axis: null };
    },
    onPointerMove(event) {
      const g = gesture.current;
      if (!g || g.id !== event.pointerId) return;
      const dx = event.clientX - g.x;
      const dy = event.clientY - g.y;
      if (g.axis === null) {
        if (Math.abs(dx) > SLOP_PX && Math.abs(dx) > Math.abs(dy)) {
          g.axis = "x";
          setDragging(true);
          setEngaged(true);
          event.currentTarget.setPointerCapture?.(event.pointerId);
        } else if (Math.abs(dy) > SLOP_PX) {
          g.axis = "y";
        }
      }
      if (g.axis === "x") setOffset(clamp(dx));
    },
    onPointerUp(event) {
      const g = gesture.current;
      if (!g || g.id !== event.pointerId) return;
      if (g.axis === "x") {
        swiped.current = true;
        const outcome = swipeOutcome(event.clientX - g.x);
        reset();
        if (outcome === "left") onSwipeLeft?.();
        else if (outcome === "right") onSwipeRight?.();
        return;
      }
      reset();
    },
    onPointerCancel: reset,
  };

  const consumeClick = useCallback(() => {
    const was = swiped.current;
    swiped.current = false;
    return was;
  }, []);

  return { offset, state: swipeState(offset), dragging, engaged, handlers, consumeClick };
}
