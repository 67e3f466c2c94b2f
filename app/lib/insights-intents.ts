/** The forms /insights posts (routes/insights-list.tsx action): one name each, used by the forms and the action. */
export const INSIGHTS_INTENTS = ["generate", "save-filters"] as const;
type InsightsIntent = (typeof INSIGHTS_INTENTS)[number];
export const INSIGHTS_INTENT = { generate: "generate", saveFilters: "save-filters" } as const satisfies Record<
  string,
  InsightsIntent
>;
