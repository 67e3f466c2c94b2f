/**
 * Live updates in the browser (docs/product.md#states-live, #calls-websockets; ADR 0013). One same-origin websocket per path per
 * page, shared by every component that listens (server.ts relays it from the provider; the session
 * cookie authenticates it). Each frame is checked against the contract; an invalid one is ignored
 * and logged. The checks (zod) load with a socket's first message, not with the page. After a close the socket reopens 5 s later (TRADE_UPDATES_RECONNECT_MS, both paths),
 * and a reopened socket revalidates the route's data, since what was published meanwhile is lost.
 *
 * Hooks:
 *   useLivePrices(rows)            rows with live price and time patched in (watchlist, UIP list)
 *   useTradeUpdates(onUpdate)      calls onUpdate with each valid TradeUpdate (insights)
 *   useLiveStatus(path)            "off" | "connecting" | "live" | "reconnecting" for the indicator
 */
import { startTransition, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useRevalidator } from "react-router";
import { TRADE_UPDATES_RECONNECT_MS, WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "#contract/ws-paths.ts";
import { WS_CLOSE_UNAUTHORIZED } from "#contract/ws-close-codes.ts";
import type { StockPriceUpdate, TradeUpdate } from "#contract/ws.ts";
import { applyPriceUpdate, withLivePrices, type LivePrices, type QuotedRows } from "#app/lib/live-updates.ts";
import type { ParsedMessage } from "#app/lib/live-messages.ts";

export type LivePath = typeof WS_STOCK_UPDATES | typeof WS_TRADE_UPDATES;
/** off: not started (server render, no JavaScript); live: connected; reconnecting: waiting to retry. */
export type LiveStatus = "off" | "connecting" | "live" | "reconnecting";

type Listener<T> = (message: T) => void;
type Parse<T> = (raw: unknown) => ParsedMessage<T>;

const loadPriceParser = async (): Promise<Parse<StockPriceUpdate>> =>
  (await import("#app/lib/live-messages.ts")).parsePriceMessage;
const loadTradeParser = async (): Promise<Parse<TradeUpdate>> =>
  (await import("#app/lib/live-trade-messages.ts")).parseTradeMessage;

/** One shared socket for a path: opened with the first listener, closed a moment after the last leaves. */
class LiveConnection<T> {
  private socket: WebSocket | null = null;
  private status: LiveStatus = "off";
  private retry: ReturnType<typeof setTimeout> | null = null;
  private linger: ReturnType<typeof setTimeout> | null = null;
  private opened = false;
  private readonly listeners = new Set<Listener<T>>();
  private readonly staleListeners = new Set<() => void>();
  private readonly statusListeners = new Set<() => void>();
  private readonly path: LivePath;
  private readonly loadParse: () => Promise<Parse<T>>;
  private parse: Promise<Parse<T>> | null = null;

  constructor(path: LivePath, loadParse: () => Promise<Parse<T>>) {
    this.path = path;
    this.loadParse = loadParse;
  }

  getStatus = (): LiveStatus => this.status;

  onStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    this.retain();
    return () => {
      this.statusListeners.delete(listener);
      this.release();
    };
  };

  listen(listener: Listener<T>): () => void {
    this.listeners.add(listener);
    this.retain();
    return () => {
      this.listeners.delete(listener);
      this.release();
    };
  }

  onStale(listener: () => void): () => void {
    this.staleListeners.add(listener);
    return () => this.staleListeners.delete(listener);
  }

  private setStatus(status: LiveStatus) {
    if (this.status === status) return;
    this.status = status;
    for (const listener of [...this.statusListeners]) listener();
  }

  private get wanted() {
    return this.listeners.size + this.statusListeners.size > 0;
  }

  private retain() {
    if (this.linger) clearTimeout(this.linger);
    this.linger = null;
    if (!this.socket && !this.retry) this.open();
  }

  /** Route changes unmount and remount listeners: keep the socket a moment so it is not reopened. */
  private release() {
    if (this.wanted || this.linger) return;
    this.linger = setTimeout(() => {
      this.linger = null;
      if (!this.wanted) this.shut();
    }, 2_000);
  }

  private open() {
    if (typeof WebSocket === "undefined") return;
    const url = new URL(this.path, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    this.setStatus(this.opened ? "reconnecting" : "connecting");
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      const again = this.opened;
      this.opened = true;
      this.setStatus("live");
      if (again) for (const listener of [...this.staleListeners]) listener();
    };
    // Callbacks on one promise run in the order they were added, so messages keep their order.
    socket.onmessage = (event) => {
      // Loaded with the first message, not when the socket opens: zod and the schemas take one long
      // task, and a page that gets no message (insights, most of the time) never needs them. Loaded
      // once; a failed load (offline) is tried again at the next message.
      const parse = (this.parse ??= this.loadParse().catch((error: unknown) => {
        this.parse = null;
        throw error;
      }));
      parse.then(
        (check) => {
          const parsed = check(event.data);
          if (!parsed.ok) {
            console.warn(`[live] ignored an invalid message on ${this.path} (${parsed.reason})`);
            return;
          }
          for (const listener of [...this.listeners]) listener(parsed.message);
        },
        () => console.warn(`[live] could not load the message checks; a message on ${this.path} was dropped`),
      );
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      // The session ended (ADR 0013): reloading the route's data takes the page to /login with
      // the session-expired message of docs/product.md#errors-session, rather than retrying a socket that will be refused.
      if (event.code === WS_CLOSE_UNAUTHORIZED) for (const listener of [...this.staleListeners]) listener();
      if (!this.wanted) return this.setStatus("off");
      // docs/product.md#states-live: reconnect 5 s after closing (a refused upgrade closes too).
      this.setStatus("reconnecting");
      this.retry = setTimeout(() => {
        this.retry = null;
        if (this.wanted) this.open();
        else this.setStatus("off");
      }, TRADE_UPDATES_RECONNECT_MS);
    };
  }

  private shut() {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
    this.opened = false;
    this.setStatus("off");
  }
}

let prices: LiveConnection<StockPriceUpdate> | undefined;
let trades: LiveConnection<TradeUpdate> | undefined;

function connection(path: typeof WS_STOCK_UPDATES): LiveConnection<StockPriceUpdate>;
function connection(path: typeof WS_TRADE_UPDATES): LiveConnection<TradeUpdate>;
function connection(path: LivePath): LiveConnection<StockPriceUpdate> | LiveConnection<TradeUpdate> {
  if (path === WS_STOCK_UPDATES) return (prices ??= new LiveConnection(path, loadPriceParser));
  return (trades ??= new LiveConnection(path, loadTradeParser));
}

const serverStatus = (): LiveStatus => "off";

/** Whether the path's socket is connected, for the indicator; "off" on the server and without JS. */
export function useLiveStatus(path: LivePath): LiveStatus {
  const live = path === WS_STOCK_UPDATES ? connection(path) : connection(WS_TRADE_UPDATES);
  return useSyncExternalStore(live.onStatus, live.getStatus, serverStatus);
}

/**
 * Revalidates the route's loaders whenever the path's socket reopens (updates were missed
 * meanwhile), and when it is closed because the session ended (the loaders then end it here too).
 */
function useRevalidateWhenStale(path: LivePath) {
  const { revalidate } = useRevalidator();
  const latest = useRef(revalidate);
  useEffect(() => {
    latest.current = revalidate;
  }, [revalidate]);
  useEffect(() => {
    const live = path === WS_STOCK_UPDATES ? connection(path) : connection(WS_TRADE_UPDATES);
    return live.onStale(() => void latest.current());
  }, [path]);
}

/**
 * The rows with each stock's current_price and updated_at replaced by the latest live quote for
 * its ticker (when newer than what the loader gave). Pass the loader's rows; render what it returns.
 */
export function useLivePrices<
  T extends { stock: { ticker: string; current_price: number; updated_at: string | null } },
>(rows: readonly T[]): T[] {
  const [latest, setLatest] = useState<LivePrices>(() => new Map());
  // A quote renders the list again (only the row it moves, ADR 0055): as a transition, and quotes close together at once.
  useEffect(
    () =>
      connection(WS_STOCK_UPDATES).listen((update) =>
        startTransition(() => setLatest((m) => applyPriceUpdate(m, update))),
      ),
    [],
  );
  useRevalidateWhenStale(WS_STOCK_UPDATES);
  // The rows a quote did not move keep their objects from one update to the next.
  const [kept] = useState<QuotedRows<T>>(() => new WeakMap());
  return useMemo(() => withLivePrices(rows, latest, kept), [rows, latest, kept]);
}

/** Calls `onUpdate` with every valid trade update while mounted (the latest `onUpdate` is used). */
export function useTradeUpdates(onUpdate: (update: TradeUpdate) => void): LiveStatus {
  const callback = useRef(onUpdate);
  useEffect(() => {
    callback.current = onUpdate;
  }, [onUpdate]);
  useEffect(() => connection(WS_TRADE_UPDATES).listen((update) => callback.current(update)), []);
  useRevalidateWhenStale(WS_TRADE_UPDATES);
  return useLiveStatus(WS_TRADE_UPDATES);
}
