import { routeOffline, tickerOf } from "#app/lib/offline-policy.ts";

/** Look the company up (no JavaScript), or add the stock. */
export const INTENTS = ["lookup", "create"] as const;
export type Intent = (typeof INTENTS)[number];

export const offline = routeOffline({
  path: "/add-uip-stock",
  screen: "saved",
  queued: {
    intents: INTENTS,
    describe: (fields) => {
      const ticker = tickerOf(fields.get("ticker"));
      return ticker ? `Add ${ticker} to the UIP list` : "Add a stock to the UIP list";
    },
  },
});
