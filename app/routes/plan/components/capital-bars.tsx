import type { Plan } from "#contract/plan.ts";

/**
 * Capital by ticker if every open put were assigned, as bars of the share of capital with the
 * per-ticker limit drawn (docs/product.md#screens-plan): SVG rendered on the server, so it paints
 * without scripts. A bar over the limit says so in words, not only in colour; the table beside it
 * is the text alternative.
 */
const WIDTH = 340;
const LABEL = 56;
const ROW = 26;
const BAR = 16;
const TOP = 18;

export function CapitalBars({ plan }: { plan: Plan }) {
  const rows = plan.exposures.filter((e) => e.share_of_capital !== null);
  if (rows.length === 0) return null;
  const limit = plan.settings.ticker_limit;
  const most = Math.max(limit * 1.25, ...rows.map((r) => r.share_of_capital!));
  const plot = WIDTH - LABEL - 64;
  const x = (share: number) => LABEL + (share / most) * plot;
  const height = TOP + rows.length * ROW + 4;
  const limitText = `${Math.round(limit * 100)} % limit`;
  const description = rows
    .map((r) => `${r.ticker} ${Math.round(r.share_of_capital! * 100)} %${r.over_limit ? ", over the limit" : ""}`)
    .join("; ");

  return (
    <svg
      className="plan-bars"
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      role="img"
      aria-labelledby="plan-bars-title"
      aria-describedby="plan-bars-desc"
      data-testid="capital-bars"
    >
      {/* One string: the server's text separators inside <title> cut the name short. */}
      <title id="plan-bars-title">{`Capital by ticker if every open put were assigned, against your ${limitText}`}</title>
      <desc id="plan-bars-desc">{description}</desc>
      <line className="plan-bars__limit" x1={x(limit)} x2={x(limit)} y1={TOP - 4} y2={height} />
      <text className="plan-bars__limit-label" x={x(limit)} y={11} textAnchor="middle">
        {limitText}
      </text>
      {rows.map((r, i) => {
        const y = TOP + i * ROW;
        const share = r.share_of_capital!;
        return (
          <g key={r.ticker} className={r.over_limit ? "plan-bars__row plan-bars__row--over" : "plan-bars__row"}>
            <text className="plan-bars__ticker" x={0} y={y + BAR - 3}>
              {r.ticker}
            </text>
            <rect
              className="plan-bars__bar"
              x={LABEL}
              y={y}
              width={Math.max(1, x(share) - LABEL)}
              height={BAR}
              rx={3}
            />
            <text className="plan-bars__value" x={x(share) + 4} y={y + BAR - 3}>
              {Math.round(share * 100)} %{r.over_limit ? " over" : ""}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
