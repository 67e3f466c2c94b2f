import type { ConfigKey } from "#contract/entities.ts";
import { messages } from "#app/lib/messages.ts";

/** The admin's switches on /profile (docs/product.md#states-admin): title, hint and the text of a failed change. */
export const CONFIG_LABELS: Record<ConfigKey, { title: string; hint: string; failed: string }> = {
  auto_refresh_enabled: {
    title: "Auto Refresh",
    hint: "Refresh stock prices automatically",
    failed: messages.toggleAutoRefreshFailed,
  },
  auto_trade_recommendation_generation_enabled: {
    title: "Auto Trade Recommendations",
    hint: "Generate trade recommendations automatically",
    failed: messages.toggleTradeRecommendationsFailed,
  },
};
