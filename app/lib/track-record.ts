/**
 * Display of the track record and the landing page's measured figures. Pure, so the server and the
 * browser write the same text.
 */
import type { LandingStats } from "#contract/track-record.ts";
import { formatPercent } from "./format.ts";

const dayFormat = new Intl.DateTimeFormat("en-US", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
const count = new Intl.NumberFormat("en-US");
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

/** "2026-09-11" → "Sep 11, 2026". */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
/** "2026-09" → "Sep 2026". */
export const formatMonth = (month: string) => monthFormat.format(new Date(`${month}-01T00:00:00Z`));
export const formatCount = (n: number) => count.format(n);
/** Whole dollars with a sign: "+$1,234", "−$300". */
export const formatDollars = (value: number) =>
  `${value > 0 ? "+" : value < 0 ? "−" : ""}${money.format(Math.abs(Math.round(value)))}`;
/** A return with a sign, 2 decimals: "+1.24%", "−3.00%". */
export const formatReturn = (fraction: number) =>
  `${fraction > 0 ? "+" : fraction < 0 ? "−" : ""}${formatPercent(Math.abs(fraction), 2)}`;
/** A bucket "60–70%". */
export const formatBucket = (from: number, to: number) => `${Math.round(from * 100)}–${Math.round(to * 100)}%`;

interface StatTile {
  label: string;
  value: string;
  /** What the figure covers: its period, its source. */
  detail: string;
}

/**
 * The landing page's four tiles, each a figure the app measured (or a dash saying there is none
 * yet). Without the figures (the provider did not answer) every tile says so.
 */
export function statTiles(stats: LandingStats | null): StatTile[] {
  const none = "Not available right now";
  const w = stats?.expired_worthless;
  const simulated = stats?.simulated ? " · simulated market" : "";
  return [
    {
      label: "Recommended puts that expired worthless",
      value: w?.share != null ? formatPercent(w.share, 0) : "—",
      detail: !stats
        ? none
        : w && w.count > 0 && w.first_expiry && w.last_expiry
          ? `of ${formatCount(w.count)} expiring ${formatDay(w.first_expiry)} – ${formatDay(w.last_expiry)}${simulated}`
          : "None has expired yet",
    },
    {
      label: "Recommendations scored",
      value: stats ? formatCount(stats.scored) : "—",
      detail: !stats
        ? none
        : `at their expiry, across ${formatCount(stats.tickers_scored)} ${stats.tickers_scored === 1 ? "ticker" : "tickers"}${simulated}`,
    },
    {
      label: "Puts priced in the latest session",
      value: stats?.latest_session.day ? formatCount(stats.latest_session.puts_priced) : "—",
      detail: !stats
        ? none
        : stats.latest_session.day
          ? `by the engine on ${formatDay(stats.latest_session.day)}`
          : "No session priced yet",
    },
    {
      label: "Stocks followed",
      value: stats ? formatCount(stats.stocks_followed) : "—",
      detail: stats ? "on watchlists and the curated list" : none,
    },
  ];
}
