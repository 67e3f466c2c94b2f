import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/** A burst of new recommendations is read once, this long after its first message. */
const RELOAD_AFTER_MS = 2_000;
/** A socket lost is opened again this many times (a session that ended is refused each time). */
const RETRIES = 3;

/**
 * The Plan's live part (docs/product.md#screens-plan, ADR 0081): a new recommendation set of any
 * stock may change the best puts, so the page's data is read again once per burst, through the
 * same relay as the cards (/ws/trade-updates, ADR 0013). Its own small socket, not the lists'
 * live-update module: the Plan never applies a message, it only reloads, and sharing that module
 * with a new screen split its chunk and took the option detail past its first-load cap. The path
 * comes with the page's data (contract/ws-paths.ts, read on the server) for the same reason.
 */
export function usePlanLive(live: { path: string; retryMs: number }): void {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  useEffect(() => {
    latest.current = revalidator;
  });
  useEffect(() => {
    let socket: WebSocket | null = null;
    let reload: ReturnType<typeof setTimeout> | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    let retries = 0;
    const open = () => {
      const url = new URL(live.path, window.location.href);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(url);
      socket.onmessage = (event) => {
        if (reload !== null || !String(event.data).includes('"trade_recommendations_update"')) return;
        reload = setTimeout(() => {
          reload = null;
          void latest.current.revalidate();
        }, RELOAD_AFTER_MS);
      };
      socket.onopen = () => {
        retries = 0;
      };
      socket.onclose = () => {
        if (!stopped && retries++ < RETRIES) retry = setTimeout(open, live.retryMs);
      };
    };
    open();
    return () => {
      stopped = true;
      if (reload) clearTimeout(reload);
      if (retry) clearTimeout(retry);
      socket?.close();
    };
  }, [live.path, live.retryMs]);
}
