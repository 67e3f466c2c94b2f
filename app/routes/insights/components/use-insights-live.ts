import { useEffect, useRef } from "react";
import type { useRevalidator } from "react-router";
import { LIVE_COUNT_RELOAD_MS } from "#app/lib/insights.ts";
import { useLiveRecommendations, type LoadedRecommendations } from "#app/hooks/use-live-recommendations.ts";
import { useTradeUpdates } from "#app/hooks/use-live-updates.ts";

/**
 * Live updates (docs/product.md#states-live, /ws/trade-updates): each valid update changes the cards in place.
 * A broadcast's buy-level flags follow the shared UIP levels, not this trader's own: the open
 * stock's new rows are then read again for the trader (the others are read when expanded).
 * A top-line update carries the default view's count: the trader's own counts (their levels,
 * their filters and those in the address) are read again once per burst (LIVE_COUNT_RELOAD_MS).
 */
export function useInsightsLive(loaded: LoadedRecommendations, revalidator: ReturnType<typeof useRevalidator>) {
  const { live, apply: applyLiveUpdate } = useLiveRecommendations(loaded);
  const countsReload = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestRevalidator = useRef(revalidator);
  useEffect(() => {
    latestRevalidator.current = revalidator;
  });
  useEffect(
    () => () => {
      if (countsReload.current) clearTimeout(countsReload.current);
    },
    [],
  );
  useTradeUpdates((update) => {
    applyLiveUpdate(update);
    if (update.type === "trade_recommendations_update" && update.ticker === loaded.open) {
      void revalidator.revalidate();
    }
    if (update.type === "trade_recommendations_top_line_update" && countsReload.current === null) {
      countsReload.current = setTimeout(() => {
        countsReload.current = null;
        void latestRevalidator.current.revalidate();
      }, LIVE_COUNT_RELOAD_MS);
    }
  });
  return live;
}
