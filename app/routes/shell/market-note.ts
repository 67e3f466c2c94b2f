/**
 * The line beside the Live dot when the US exchange is closed (docs/product.md#states-market,
 * docs/decisions/0037): the demo market replaying a session, or a live source closed until its next
 * open. Server-only in use (the shell's loader sends the finished text), so no screen text reaches
 * the first-load scripts.
 */
import type { MarketStatus } from "#contract/market-status.ts";

const DEMO_REPLAY_NOTE = "Demo market: replaying a session";

const opensFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  weekday: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** "Mon 09:30": the weekday and time in New York. */
function nyWeekdayTime(iso: string): string {
  const parts = Object.fromEntries(opensFormat.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${parts.hour}:${parts.minute}`;
}

/** null while the exchange is open: the Live dot says it all. */
export function marketNote(status: MarketStatus): string | null {
  if (status.open) return null;
  if (status.replaying) return DEMO_REPLAY_NOTE;
  return status.next_open ? `Market closed · opens ${nyWeekdayTime(status.next_open)} ET` : "Market closed";
}
