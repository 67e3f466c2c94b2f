/**
 * The Recommendations screen's rules (docs/product.md#screens-insights, #states-live and
 * the selected expiry), pure so the server render, the browser and the tests agree.
 */
import type { Href } from "#app/lib/href.ts";
import type { TopLineRecommendation, TradeRecommendation } from "#contract/entities.ts";
import type { TradeUpdate } from "#contract/ws.ts";
import { isActionReply, type ActionReply } from "./action-reply.ts";
import { sanitizeTicker } from "./input-sanitizers.ts";
import { filtersInUrl } from "./trader-filters.ts";

export const INSIGHTS_PATH = "/insights" satisfies Href;

/** The screen's URL state: name search, max strike, the expanded stock, its selected expiry, every put of it (?all=), the plan-fit filter (ADR 0081). */
export const INSIGHTS_PARAM = {
  query: "q",
  maxStrike: "max",
  open: "open",
  date: "date",
  all: "all",
  fit: "fit",
  shown: "shown",
} as const;

/**
 * The cards a page of the list holds, and how many more 'Show {n} more' adds (ADR 0102): about
 * three phone screens, the render a view costs no longer grows with every stock anyone flagged.
 */
export const INSIGHTS_PAGE = 25;
/** The most cards `?shown=` asks for: the provider's cap on a page (contract TOP_LINE_LIMIT_MAX). */
export const INSIGHTS_SHOWN_MAX = 10_000;

/** How many cards the URL's `shown` asks for: a whole number from INSIGHTS_PAGE to INSIGHTS_SHOWN_MAX, else a page. */
export function shownCards(raw: string | null | undefined): number {
  const value = Number(raw);
  if (!raw || !Number.isInteger(value)) return INSIGHTS_PAGE;
  return Math.min(INSIGHTS_SHOWN_MAX, Math.max(INSIGHTS_PAGE, value));
}

/** The longest name search the provider takes (contract topLineRecommendationsPage's `q`). */
export const SEARCH_MAX = 100;

/** The count line over the list: 'Showing 25 of 2,500 stocks'. */
export function showingText(shown: number, total: number): string {
  return `Showing ${shown.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} ${total === 1 ? "stock" : "stocks"}`;
}

/**
 * The option detail's `?explain=1`: the server writes the AI explanation into the page (the
 * 'Explain' button without JavaScript). Not one of the list's own parameters: it never travels.
 */
export const EXPLAIN_PARAM = "explain";

/** The URL's search for the list, keeping only the screen's own parameters (never `index` or `_data`). */
export function insightsSearch(params: URLSearchParams, change?: (next: URLSearchParams) => void): string {
  const next = new URLSearchParams();
  for (const name of Object.values(INSIGHTS_PARAM)) {
    const value = params.get(name);
    if (value) next.set(name, value);
  }
  // The trader's filters, when the URL sets them, travel with every link of the list.
  for (const [name, value] of Object.entries(filtersInUrl(params) ?? {})) next.set(name, value);
  change?.(next);
  // Always in the same order, whatever order the changes came in; empty values are dropped.
  const ordered = new URLSearchParams();
  for (const name of Object.values(INSIGHTS_PARAM)) {
    const value = next.get(name);
    if (value) ordered.set(name, value);
  }
  for (const [name, value] of next) if (value && !ordered.has(name)) ordered.append(name, value);
  const search = ordered.toString();
  return search ? `?${search}` : "";
}

/** The expanded stock from the URL's `open`: a clean ticker, or null. */
export const openTicker = (value: string | null) => (value ? sanitizeTicker(value) || null : null);

/** The max-strike filter from the URL: a number of at least 0, or null (no filter) when empty or unreadable. */
export function parseMaxStrike(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined || raw.trim() === "") return null;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

/** Stocks whose name or ticker contains the query, case-insensitive. */
export function filterByName<T extends Pick<TopLineRecommendation, "ticker" | "stock_name">>(
  items: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...items];
  return items.filter(
    (item) => item.stock_name.toLowerCase().includes(needle) || item.ticker.toLowerCase().includes(needle),
  );
}

/** Options at or below the max strike (all of them without a filter). */
export function passingStrike<T extends Pick<TradeRecommendation, "strike_price">>(
  options: readonly T[],
  maxStrike: number | null,
): T[] {
  return maxStrike === null ? [...options] : options.filter((o) => o.strike_price <= maxStrike);
}

/** The expiration dates of these options, soonest first, each once. */
export function expiryDates(options: readonly Pick<TradeRecommendation, "expiration_date">[]): string[] {
  return [...new Set(options.map((o) => o.expiration_date))].sort();
}

/**
 * docs/product.md#states-option-card: the selected date is the one asked for while it still has options passing the
 * filter, else the first date that has any (null when none does).
 */
export function selectedDate(datesWithOptions: readonly string[], requested: string | null | undefined): string | null {
  if (requested && datesWithOptions.includes(requested)) return requested;
  return datesWithOptions[0] ?? null;
}

/**
 * After a live top-line update, how long the page waits before reading its trader's own counts
 * again: one read for a whole generation round (its updates arrive within a second or two).
 */
export const LIVE_COUNT_RELOAD_MS = 1500;

/** What the screen shows that live updates can change: the top line, and each open symbol's options. */
export interface LiveRecommendations {
  /** The page of the top line (ADR 0102), in ticker order. */
  topLine: TopLineRecommendation[];
  options: Record<string, TradeRecommendation[]>;
  /** How many stocks the server's search matched (the page's length and more); unset, the page is all of them. */
  total?: number;
  /** The search the server applied to the page (`q`). */
  query?: string;
  /** The expanded stock's card when it is not on the page (shown first). */
  pinned?: TopLineRecommendation | null;
}

/**
 * docs/product.md#states-live: trade_recommendations_update replaces that symbol's options;
 * trade_recommendations_top_line_update replaces the entry with its ticker or adds one (the list
 * stays in ticker order, as the provider sends it). A replaced entry keeps the average_iv shown.
 */
export function applyTradeUpdate(state: LiveRecommendations, update: TradeUpdate): LiveRecommendations {
  if (update.type === "trade_recommendations_update") {
    return { ...state, options: { ...state.options, [update.ticker]: update.data } };
  }
  // A broadcast carries the shared intrinsic value (the UIP list's, else 0) and the default view's
  // count; the ones on screen are this trader's own (their levels and filters). The intrinsic value
  // a new set does not change; the count stays until the page reads the trader's own again
  // (LIVE_COUNT_RELOAD_MS after the first update of a burst).
  const replaced = (item: TopLineRecommendation): TopLineRecommendation => ({
    ...update.data,
    average_iv: item.average_iv,
    trade_recommendation_count: item.trade_recommendation_count,
    conservative_iv: item.conservative_iv,
    conservative_source: item.conservative_source,
  });
  if (state.pinned?.ticker === update.ticker) return { ...state, pinned: replaced(state.pinned) };
  if (state.topLine.some((item) => item.ticker === update.ticker)) {
    return { ...state, topLine: state.topLine.map((item) => (item.ticker === update.ticker ? replaced(item) : item)) };
  }
  // A stock new to the list joins it where it sorts, when that is on this page (ADR 0102): a page
  // holds every stock of its search up to its last card, so one missing before that is new.
  // Past the last card of a partial page it may be one the page never held: left to the next read.
  if (filterByName([update.data], state.query ?? "").length === 0) return state;
  const complete = state.total === undefined || state.topLine.length >= state.total;
  const last = state.topLine.at(-1);
  if (!complete && (!last || update.data.ticker.localeCompare(last.ticker) > 0)) return state;
  const topLine = [...state.topLine, update.data].sort((a, b) => a.ticker.localeCompare(b.ticker));
  return {
    ...state,
    topLine: complete ? topLine : topLine.slice(0, state.topLine.length),
    ...(state.total === undefined ? {} : { total: state.total + 1 }),
  };
}

/** The generate action's answer to a fetcher: the toast, and on success the ticker to expand. */
export interface GenerateReply extends ActionReply {
  ticker: string | null;
}

/** The ticker a successful generation answered with, else null. */
export function generatedTicker(reply: unknown): string | null {
  if (!isActionReply(reply) || !reply.ok) return null;
  const ticker = (reply as Partial<GenerateReply>).ticker;
  return typeof ticker === "string" && ticker ? ticker : null;
}
