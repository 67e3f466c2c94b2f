import { useCallback, useState } from "react";
import type { TopLineRecommendation, TradeRecommendation } from "#contract/entities.ts";
import type { TradeUpdate } from "#contract/ws.ts";
import { applyTradeUpdate, type LiveRecommendations } from "#app/lib/insights.ts";

export interface LoadedRecommendations {
  topLine: TopLineRecommendation[];
  /** The expanded stock whose options were loaded with the page, if any. */
  open: string | null;
  options: TradeRecommendation[] | null;
  /** A page of the top line (ADR 0102): how many stocks its search matched, the search, the open stock off the page. */
  page?: { total: number; query: string; pinned: TopLineRecommendation | null };
}

function fromLoaded(loaded: LoadedRecommendations): LiveRecommendations {
  return {
    topLine: loaded.topLine,
    options: loaded.open && loaded.options ? { [loaded.open]: loaded.options } : {},
    ...(loaded.page ?? {}),
  };
}

/**
 * The Recommendations screen's data with live updates applied on top (docs/product.md#states-live): each
 * `apply(update)` replaces a symbol's options or a top-line entry in place. Fresh loader data
 * (a reload, fetch all, another stock expanded) starts again from what the server sent.
 */
export function useLiveRecommendations(loaded: LoadedRecommendations): {
  live: LiveRecommendations;
  apply: (update: TradeUpdate) => void;
} {
  const [state, setState] = useState(() => ({ loaded, live: fromLoaded(loaded) }));
  // New loader data replaces whatever arrived live before it (adjusting state while rendering, not in an effect).
  let current = state;
  if (state.loaded !== loaded) {
    current = { loaded, live: fromLoaded(loaded) };
    setState(current);
  }
  const apply = useCallback((update: TradeUpdate) => {
    setState((s) => ({ ...s, live: applyTradeUpdate(s.live, update) }));
  }, []);
  return { live: current.live, apply };
}
