/** The forms /broker posts (app/routes/broker/server.ts): one name each, used by the forms and the action's switch. */
export const BROKER_INTENTS = ["connect", "account", "sync", "remove"] as const;
export type BrokerIntent = (typeof BROKER_INTENTS)[number];
export const BROKER_INTENT = {
  connect: "connect",
  account: "account",
  sync: "sync",
  remove: "remove",
} as const satisfies Record<string, BrokerIntent>;
