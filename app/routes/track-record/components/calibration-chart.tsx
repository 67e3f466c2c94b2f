import type { CalibrationBucket } from "#contract/track-record.ts";
import { formatPercent } from "#app/lib/format.ts";
import { formatBucket, formatCount } from "#app/lib/track-record.ts";

const WIDTH = 340;
const HEIGHT = 200;
const LEFT = 34;
const BOTTOM = 26;
const TOP = 8;
const PLOT = HEIGHT - BOTTOM - TOP;
const y = (fraction: number) => TOP + PLOT * (1 - fraction);

/**
 * Predicted chance of profit against the share that was profitable, per bucket: drawn on the
 * server as plain SVG (no script). The predicted bar is an outline and the observed one solid, so
 * colour is not what tells them apart; the whisker is the observed share's 95% interval. The same
 * figures are in the table below the chart.
 */
export function CalibrationChart({ buckets }: { buckets: CalibrationBucket[] }) {
  const shown = buckets.filter((b) => b.count > 0);
  if (shown.length === 0) return null;
  const slot = (WIDTH - LEFT) / shown.length;
  const bar = Math.min(22, slot / 2 - 4);
  const summary = shown
    .map(
      (b) =>
        `${formatBucket(b.from, b.to)}: ${formatPercent(b.mean_predicted)} predicted, ${formatPercent(b.observed_profit_rate)} profitable of ${formatCount(b.count)}`,
    )
    .join("; ");
  return (
    <figure className="tr-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="tr-chart-title tr-chart-desc"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id="tr-chart-title">Chance of profit predicted and share profitable, by bucket</title>
        <desc id="tr-chart-desc">{summary}</desc>
        {[0, 0.25, 0.5, 0.75, 1].map((t) => (
          <g key={t} className="tr-chart__grid">
            <line x1={LEFT} x2={WIDTH} y1={y(t)} y2={y(t)} />
            <text x={LEFT - 4} y={y(t) + 3} textAnchor="end">
              {Math.round(t * 100)}%
            </text>
          </g>
        ))}
        {shown.map((b, i) => {
          const x = LEFT + i * slot + slot / 2;
          return (
            <g key={b.from}>
              <rect
                className="tr-chart__predicted"
                x={x - bar - 1}
                y={y(b.mean_predicted)}
                width={bar}
                height={PLOT * b.mean_predicted}
              />
              <rect
                className="tr-chart__observed"
                x={x + 1}
                y={y(b.observed_profit_rate)}
                width={bar}
                height={PLOT * b.observed_profit_rate}
              />
              {b.low !== null && b.high !== null ? (
                <line
                  className="tr-chart__whisker"
                  x1={x + 1 + bar / 2}
                  x2={x + 1 + bar / 2}
                  y1={y(b.low)}
                  y2={y(b.high)}
                />
              ) : null}
              <text className="tr-chart__label" x={x} y={HEIGHT - 10} textAnchor="middle">
                {formatBucket(b.from, b.to)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="tr-chart__legend">
        <span>
          <span className="tr-swatch tr-swatch--predicted" aria-hidden="true" /> Predicted (outline): mean chance of
          profit shown
        </span>
        <span>
          <span className="tr-swatch tr-swatch--observed" aria-hidden="true" /> Observed (solid): share that ended
          profitable, with its 95% interval
        </span>
      </figcaption>
    </figure>
  );
}
