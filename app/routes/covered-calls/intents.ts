/** The forms /insights/calls posts (its action's switch): one name each, used by the form and the action. */
export const COVERED_CALLS_INTENTS = ["save-call-filters"] as const;
export type CoveredCallsIntent = (typeof COVERED_CALLS_INTENTS)[number];
export const COVERED_CALLS_INTENT = { saveFilters: "save-call-filters" } as const satisfies Record<
  string,
  CoveredCallsIntent
>;
