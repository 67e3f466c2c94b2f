/**
 * What the screens say about the market beside the Live dot (docs/product.md#states-market,
 * docs/decisions/0037): the demo market replaying a session while the exchange is closed, or a
 * live source closed until its next open. The calendar is the NYSE's (calendar.ts).
 */
import type { MarketStatus } from "#contract/market-status.ts";
import { isMarketOpen, nextSessionOpen } from "./calendar.ts";
import { marketNow } from "./clock.ts";
import type { MarketData } from "./port.ts";

export function marketStatus(
  market: Pick<MarketData, "source" | "replaysWhenClosed" | "now">,
  now = marketNow(market),
): MarketStatus {
  const open = isMarketOpen(now);
  return {
    source: market.source ?? "simulated",
    open,
    replaying: !open && market.replaysWhenClosed === true,
    next_open: open ? null : nextSessionOpen(now).toISOString(),
    now: now.toISOString(),
  };
}
