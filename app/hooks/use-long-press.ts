import { useCallback, useEffect, useRef, type MouseEvent, type PointerEvent } from "react";
import { LONG_PRESS_MS, LONG_PRESS_TOLERANCE_PX, withinTolerance } from "#app/lib/stock-list.ts";

interface LongPressHandlers {
  onPointerDown(event: PointerEvent<HTMLElement>): void;
  onPointerMove(event: PointerEvent<HTMLElement>): void;
  onPointerUp(event: PointerEvent<HTMLElement>): void;
  onPointerCancel(event: PointerEvent<HTMLElement>): void;
  onContextMenu(event: MouseEvent<HTMLElement>): void;
}

/**
 * docs/product.md#screens-watchlist, #states-lists: a press held 500 ms without moving 10 px calls `onLongPress`. Works for touch,
 * pen and mouse (pointer events). `consumeClick()` tells the caller to swallow the click that the
 * browser sends when the finger lifts, so a long press does not also count as a tap.
 */
export function useLongPress(
  onLongPress: () => void,
  { delay = LONG_PRESS_MS, tolerance = LONG_PRESS_TOLERANCE_PX, disabled = false } = {},
): { handlers: LongPressHandlers; consumeClick: () => boolean } {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  const fired = useRef(false);
  const callback = useRef(onLongPress);
  useEffect(() => {
    callback.current = onLongPress;
  }, [onLongPress]);

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);

  const handlers: LongPressHandlers = {
    onPointerDown(event) {
      if (disabled || !event.isPrimary || (event.pointerType === "mouse" && event.button !== 0)) return;
      fired.current = false;
      cancel();
      start.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
      timer.current = setTimeout(() => {
        timer.current = null;
        fired.current = true;
        navigator.vibrate?.(15);
        callback.current();
      }, delay);
    },
    onPointerMove(event) {
      const origin = start.current;
      if (!origin || origin.id !== event.pointerId) return;
      if (!withinTolerance(event.clientX - origin.x, event.clientY - origin.y, tolerance)) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onContextMenu(event) {
      // A held finger opens the browser's context menu at about the same moment; not on our rows.
      if (start.current || fired.current) event.preventDefault();
    },
  };

  const consumeClick = useCallback(() => {
    const was = fired.current;
    fired.current = false;
    return was;
  }, []);

  return { handlers, consumeClick };
}
