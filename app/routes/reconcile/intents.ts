/** The form /reconcile posts (app/routes/reconcile/server.ts): a difference's fix. */
export const RECONCILE_INTENTS = ["fix"] as const;
export const RECONCILE_INTENT = { fix: "fix" } as const satisfies Record<string, (typeof RECONCILE_INTENTS)[number]>;

/** The screen's query: which broker's snapshot to compare (the latest without it). */
export const RECONCILE_PARAM = { source: "source" } as const;

/** The fix form's fields, spelled once for the form and the action. */
export const FIX_FIELD = {
  source: "source",
  asOf: "as_of",
  key: "key",
  action: "action",
  quantity: "quantity",
  price: "price",
} as const;
