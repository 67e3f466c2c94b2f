import type { ReactNode } from "react";
import type { CalibrationBucket, ScoredPickRow, TrackRecordGroup } from "#contract/track-record.ts";
import { formatPercent, formatPrice } from "#app/lib/format.ts";
import { formatBucket, formatCount, formatDay, formatDollars, formatReturn } from "#app/lib/track-record.ts";

/** The figures of a group of scored puts, the same columns in every table. */
const GROUP_HEADINGS = [
  "Puts",
  "Expired worthless",
  "Assigned",
  "Chance of profit shown (mean)",
  "Ended profitable",
  "Promised return (mean)",
  "Realised return (mean)",
  "P&L, one contract each",
] as const;

function groupCells(g: TrackRecordGroup): ReactNode[] {
  return [
    formatCount(g.count),
    `${formatCount(g.expired_worthless)} (${formatPercent(g.count ? g.expired_worthless / g.count : 0, 0)})`,
    formatCount(g.assigned),
    formatPercent(g.mean_predicted),
    formatPercent(g.observed_profit_rate),
    formatReturn(g.mean_promised_return),
    formatReturn(g.mean_realised_return),
    formatDollars(g.pnl_per_contract),
  ];
}

function Table({
  caption,
  first,
  headings,
  rows,
}: {
  caption: string;
  first: string;
  headings: readonly string[];
  rows: { key: string; head: ReactNode; cells: ReactNode[] }[];
}) {
  return (
    <div className="tr-table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="tr-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{first}</th>
            {headings.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.head}</th>
              {r.cells.map((cell, i) => (
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CalibrationTable({ buckets }: { buckets: CalibrationBucket[] }) {
  return (
    <Table
      caption="Calibration: chance of profit shown against what happened"
      first="Chance of profit shown"
      headings={["Puts", "Mean shown", "Ended profitable", "95% interval", "Expired worthless"]}
      rows={buckets
        .filter((b) => b.count > 0)
        .map((b) => ({
          key: String(b.from),
          head: formatBucket(b.from, b.to),
          cells: [
            formatCount(b.count),
            formatPercent(b.mean_predicted),
            formatPercent(b.observed_profit_rate),
            b.low !== null && b.high !== null ? `${formatPercent(b.low, 0)}–${formatPercent(b.high, 0)}` : "—",
            formatPercent(b.count ? b.expired_worthless / b.count : 0, 0),
          ],
        }))}
    />
  );
}

export function GroupTable<G extends TrackRecordGroup>({
  caption,
  first,
  groups,
  keyOf,
  label,
}: {
  caption: string;
  first: string;
  groups: G[];
  keyOf: (g: G) => string;
  label: (g: G) => ReactNode;
}) {
  return (
    <Table
      caption={caption}
      first={first}
      headings={GROUP_HEADINGS}
      rows={groups.map((g) => ({ key: keyOf(g), head: label(g), cells: groupCells(g) }))}
    />
  );
}

export function RecentTable({ picks }: { picks: ScoredPickRow[] }) {
  return (
    <Table
      caption="The latest scored puts"
      first="Put"
      headings={["Shown", "Premium", "Chance of profit shown", "Close at expiry", "Outcome", "P&L a share"]}
      rows={picks.map((p) => ({
        key: `${p.option_symbol}-${p.shown_day}`,
        head: `${p.ticker} ${formatPrice(p.strike)} put, ${formatDay(p.expiration)}`,
        cells: [
          `${formatDay(p.shown_day)}${p.source === "backtest" ? " (back-test)" : ""}`,
          formatPrice(p.premium),
          formatPercent(p.probability_of_profit),
          formatPrice(p.close_at_expiry),
          p.outcome === "assigned" ? "Assigned" : "Expired worthless",
          `${p.pnl_per_share > 0 ? "+" : p.pnl_per_share < 0 ? "−" : ""}${formatPrice(Math.abs(p.pnl_per_share))}`,
        ],
      }))}
    />
  );
}
