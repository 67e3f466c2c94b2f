/** Checking a /ws/trade-updates message against the contract (live-messages.ts says how). */
import { TradeUpdate } from "#contract/ws.ts";
import { parseMessage } from "./live-messages.ts";

export const parseTradeMessage = (raw: unknown) => parseMessage(raw, TradeUpdate);
