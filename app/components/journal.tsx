import { Form } from "react-router";
import type { Journal, JournalRow, OpenOption, ShareLot, WheelCycle } from "#contract/entities.ts";
import { formatDateTime } from "#app/lib/format.ts";
import { RollLink } from "./roll-link.tsx";
import { formatMoney, formatPercent, formatSignedMoney } from "#app/lib/trade-journal.ts";
import type { PositionAlertEvent, PositionAlertsByOption } from "#contract/position-alerts.ts";

/** The badge on the position (text, so colour is never the only signal); here, not in the contract, whose zod /portfolio does not load (ADR 0051). */
export const POSITION_ALERT_BADGES: Record<PositionAlertEvent, string> = {
  profit_target: "Profit target reached",
  near_strike: "Near the strike",
  through_strike: "Through the strike",
  earnings: "Earnings before expiry",
  expiry_itm: "Expires tomorrow in the money",
  ex_dividend: "Ex-dividend: early assignment risk",
};

/**
 * The wheel journal's sections on the Trades screen. Every figure says what it is: net of fees,
 * at the mark (mid of bid and ask), per share; colour always comes with a sign or a word.
 */

const KIND_LABELS: Record<JournalRow["kind"], string> = {
  stock_buy: "Bought shares",
  stock_sell: "Sold shares",
  sell_to_open: "Sold to open",
  buy_to_close: "Bought to close",
  expire: "Expired",
  assignment: "Assigned",
  exercise: "Called away",
};

export const pnlTone = (value: number) => (value > 0 ? "gain" : value < 0 ? "loss" : "flat");
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const formatDay = (iso: string) => day.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const optionTitle = (o: { ticker: string; strike: number; option_type: string; expiry: string }) =>
  `${o.ticker} ${o.strike} ${o.option_type} · exp ${formatDay(o.expiry)}`;

/** A term and its value; the term names the figure, unit and basis included. */
function Figure({ term, children, tone }: { term: string; children: React.ReactNode; tone?: string }) {
  return (
    <div className="journal-figure">
      <dt>{term}</dt>
      <dd className={tone ? `journal-pnl journal-pnl--${tone}` : undefined}>{children}</dd>
    </div>
  );
}

export function JournalFigures({ stats, periodLabel }: { stats: Journal["stats"]; periodLabel: string }) {
  return (
    <section aria-labelledby="journal-figures" className="journal-section">
      <h2 id="journal-figures">Figures</h2>
      <dl className="journal-figures">
        <Figure term={`Realised P/L, ${periodLabel} (net of fees)`} tone={pnlTone(stats.realised_pnl)}>
          {formatSignedMoney(stats.realised_pnl)}
        </Figure>
        <Figure term="Win rate (closed cycles with a gain)">
          {stats.win_rate === null
            ? "No closed cycles"
            : `${formatPercent(stats.win_rate)} of ${plural(stats.closed_cycles ?? 0, "cycle")}`}
        </Figure>
        <Figure term="Premium this month (net of fees and buy-backs)">{formatMoney(stats.premium_month)}</Figure>
        <Figure term="Premium this year (net of fees and buy-backs)">{formatMoney(stats.premium_year)}</Figure>
        {stats.by_ticker.map((t) => (
          <Figure key={t.ticker} term={`Realised P/L on ${t.ticker} (net of fees)`} tone={pnlTone(t.realised_pnl)}>
            {formatSignedMoney(t.realised_pnl)}
          </Figure>
        ))}
      </dl>
    </section>
  );
}

export function OpenPositions({
  options,
  lots,
  alerts = {},
}: {
  options: OpenOption[];
  lots: ShareLot[];
  /** The alerts sent per open option, by OCC symbol (docs/product.md#alerts-positions). */
  alerts?: PositionAlertsByOption;
}) {
  if (options.length === 0 && lots.length === 0) return null;
  return (
    <section aria-labelledby="journal-positions" className="journal-section">
      <h2 id="journal-positions">Open positions</h2>
      <ul className="journal-cards" aria-label="Open positions">
        {options.map((o) => (
          <li key={o.occ_symbol} className="journal-card" aria-label={`Short ${optionTitle(o)}`}>
            <p className="journal-card__title">
              Short {optionTitle(o)} <span className="journal-card__occ">{o.occ_symbol}</span>
            </p>
            <PositionAlertBadges events={alerts[o.occ_symbol] ?? []} />
            <dl className="journal-figures">
              <Figure term="Contracts">{o.contracts}</Figure>
              {o.option_type === "put" ? (
                <Figure term="Collateral in use (strike × 100 × contracts)">{formatMoney(o.collateral)}</Figure>
              ) : null}
              <Figure term="Premium kept (net of fees)">{formatMoney(o.premium_kept)}</Figure>
              <Figure term="Days held">{o.days_held}</Figure>
              <Figure term="Mark (mid of bid and ask, per share)">
                {o.mark === null ? "No quote" : formatMoney(o.mark)}
              </Figure>
              <Figure
                term="P/L at the mark (before closing fees)"
                {...(o.pnl_at_mark === null ? {} : { tone: pnlTone(o.pnl_at_mark) })}
              >
                {o.pnl_at_mark === null ? "No quote" : formatSignedMoney(o.pnl_at_mark)}
              </Figure>
              <Figure term="Share of the maximum profit made">{formatPercent(o.pct_max_profit)}</Figure>
            </dl>
            <RollLink option={o} />
          </li>
        ))}
        {lots.map((lot) => (
          <li key={lot.ticker} className="journal-card" aria-label={`${lot.ticker} shares`}>
            <p className="journal-card__title">
              {plural(lot.shares, `share of ${lot.ticker}`, `shares of ${lot.ticker}`)}
            </p>
            <dl className="journal-figures">
              <Figure term="Average cost per share">{formatMoney(lot.average_cost)}</Figure>
              <Figure term="Adjusted cost basis per share (net of the cycle's premiums and fees)">
                {formatMoney(lot.adjusted_cost_basis)}
              </Figure>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function WheelCycles({ cycles }: { cycles: WheelCycle[] }) {
  if (cycles.length === 0) return null;
  return (
    <section aria-labelledby="journal-cycles" className="journal-section">
      <h2 id="journal-cycles">Wheel cycles</h2>
      <ul className="journal-cards" aria-label="Wheel cycles">
        {cycles.map((c) => {
          const name = `${c.ticker} cycle from ${formatDay(c.opened_at)}`;
          return (
            <li key={c.id} className="journal-card" aria-label={name}>
              <p className="journal-card__title">
                {c.ticker} · {formatDay(c.opened_at)} – {c.closed_at ? formatDay(c.closed_at) : "open"}{" "}
                <span className="journal-row__status">{c.closed_at ? "Closed" : "Open"}</span>
              </p>
              <dl className="journal-figures">
                <Figure term="Realised P/L (net of fees)" tone={pnlTone(c.realised_pnl)}>
                  {formatSignedMoney(c.realised_pnl)}
                </Figure>
                <Figure term="Premium (net of fees and buy-backs)">{formatMoney(c.premium_net)}</Figure>
                <Figure term="Capital (most cash tied up at once)">{formatMoney(c.capital)}</Figure>
                <Figure term="Return on capital">{formatPercent(c.return_on_capital)}</Figure>
                <Figure term="Annualised return on collateral-days">{formatPercent(c.annualised_return)}</Figure>
                {c.adjusted_cost_basis !== null ? (
                  <Figure term="Adjusted cost basis per share (net of premiums and fees)">
                    {formatMoney(c.adjusted_cost_basis)}
                  </Figure>
                ) : null}
              </dl>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function TradeRow({ trade }: { trade: JournalRow }) {
  const option = trade.option_type !== null;
  const unit = option ? plural(trade.quantity, "contract") : plural(trade.quantity, "share");
  const atStrike = trade.kind === "expire" || trade.kind === "assignment" || trade.kind === "exercise";
  return (
    <li className="journal-row">
      <div className="journal-row__main">
        <span className="journal-row__symbol">{trade.ticker}</span>
        <span className="journal-row__tag">{option ? "Option" : "Stock"}</span>
        <span
          className={`journal-pnl journal-pnl--${trade.realised_pnl === null ? "open" : pnlTone(trade.realised_pnl)}`}
        >
          {trade.realised_pnl === null ? "Opening" : `P/L ${formatSignedMoney(trade.realised_pnl)}`}
        </span>
      </div>
      <div className="journal-row__detail">
        <span>
          {KIND_LABELS[trade.kind]} {unit}
          {atStrike
            ? trade.kind === "expire"
              ? ""
              : ` at the strike ${formatMoney(trade.strike ?? 0)}`
            : ` @ ${formatMoney(trade.price)}`}
          {trade.fees > 0 ? ` · fees ${formatMoney(trade.fees)}` : ""}
        </span>
        <Form method="post" className="journal-row__delete">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={trade.id} />
          <button
            type="submit"
            className="link-button"
            aria-label={`Delete ${KIND_LABELS[trade.kind]} ${trade.ticker} of ${formatDateTime(trade.traded_at)}`}
          >
            Delete
          </button>
        </Form>
      </div>
      <div className="journal-row__meta">
        {option ? (
          <span>
            {trade.option_type === "put" ? "Put" : "Call"} {trade.strike} · exp {formatDay(trade.expiry!)} ·{" "}
            {trade.occ_symbol} ·{" "}
          </span>
        ) : null}
        <time dateTime={trade.traded_at}>{formatDateTime(trade.traded_at)}</time>
        {trade.source !== "manual" ? (
          <span> · imported from {trade.source === "ibkr" ? "Interactive Brokers" : "tastytrade"}</span>
        ) : null}
      </div>
    </li>
  );
}

/** docs/product.md#alerts-positions: the alerts sent for a position, each a badge with its words. */
function PositionAlertBadges({ events }: { events: PositionAlertEvent[] }) {
  if (events.length === 0) return null;
  return (
    <ul className="journal-card__alerts" aria-label="Alerts">
      {events.map((event) => (
        <li key={event} className="badge badge--alert">
          {POSITION_ALERT_BADGES[event]}
        </li>
      ))}
    </ul>
  );
}
