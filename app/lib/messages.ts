/** docs/product.md#errors (and the texts of #screens, #states, #validation shown to users), spelled once: `messages.invalidCredentials`. */
export * as messages from "./message-texts.ts";

/** docs/product.md#constants-timings, in ms. */
export const TOAST_MS = { app: 3000, list: 2000, page: 1000 } as const;
