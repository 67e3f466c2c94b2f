/** The forms /plan posts (app/routes/plan/server.ts): one name each, used by the forms and the action's switch. */
export const PLAN_INTENTS = ["sector"] as const;
export const PLAN_INTENT = { sector: "sector" } as const satisfies Record<string, (typeof PLAN_INTENTS)[number]>;

/** The Plan screen's query: a custom market move in percent (−15 = 15 % lower). */
export const PLAN_PARAM = { move: "move" } as const;
