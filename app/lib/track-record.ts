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
 * yet), each saying over which puts and days, gross or net, at the bid or the mid. The realised
 * return leads, set against what was promised and what T-bills paid over the same days (ADR 0097):
 * a share expired worthless alone hides what the assignments cost. Without the figures (the
 * provider did not answer) every tile says so.
 */
export function statTiles(stats: LandingStats | null): StatTile[] {
  const none = "Not available right now";
  const w = stats?.expired_worthless;
  const r = stats?.returns;
  const simulated = stats?.simulated ? " · simulated market" : "";
  const span = (n: number, first: string, last: string) =>
    `${formatCount(n)} recommended ${n === 1 ? "put" : "puts"} expiring ${formatDay(first)} – ${formatDay(last)}`;
  return [
    {
      label: "Realised return on the cash set aside",
      value: r ? `${formatReturn(r.realised)} a year` : "—",
      detail: !stats
        ? none
        : r
          ? `against ${formatReturn(r.promised)} promised and ${formatReturn(r.tbills)} in T-bills on the same cash ` +
            `over the same days · ${span(r.count, r.first_expiry, r.last_expiry)} · weighted by collateral-days, ` +
            `gross of commission, premium at the bid${r.at_mid > 0 ? ` (${formatCount(r.at_mid)} at the mid)` : ""}` +
            simulated
          : "None has expired yet",
    },
    {
      label: "Recommended puts that expired worthless",
      value: w?.share != null ? formatPercent(w.share, 0) : "—",
      detail: !stats
        ? none
        : w && w.count > 0 && w.first_expiry && w.last_expiry
          ? `of ${span(w.count, w.first_expiry, w.last_expiry)}; the assigned ones' losses are in the realised return${simulated}`
          : "None has expired yet",
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
