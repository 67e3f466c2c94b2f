/** The provider event bus: LISTEN/NOTIFY across processes on PostgreSQL, in memory on PGlite. */
export { createEventBus, type BusListener, type EventBus, type EventBusOptions } from "./bus.ts";
export { STOCK_UPDATES_CHANNEL, TRADE_UPDATES_CHANNEL } from "./channels.ts";
