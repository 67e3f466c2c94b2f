import { Form, Link } from "react-router";
import type { Journal, JournalRow, OpenOption, ShareLot, WheelCycle, WheelCycleStep } from "#contract/entities.ts";
import { formatDateTime } from "#app/lib/format.ts";
import { RollLink } from "./roll-link.tsx";
import { RESOLVE_EXPIRY_TEXT, resolveHref } from "#app/lib/resolve-expiry.ts";
import { formatMoney, formatPercent, formatSignedMoney } from "#app/lib/trade-journal.ts";
import type { PositionAlertEvent, PositionAlertsByOption } from "#contract/position-alerts.ts";

/** Where an imported trade came from, as its row says it. */
/** The badge on the position (text, so colour is never the only signal); here, not in the contract, whose zod /portfolio does not load (ADR 0051). */
export const POSITION_ALERT_BADGES: Record<PositionAlertEvent, string> = {
  profit_target: "Profit target reached",
  near_strike: "Near the strike",
  through_strike: "Through the strike",
  earnings: "Earnings before expiry",
  expiry_itm: "Expires tomorrow in the money",
  ex_dividend: "Ex-dividend: early assignment risk",
  early_exercise: "Deep in the money: early assignment risk",
};

/**
 * The wheel journal's sections on the Trades screen. Every figure says what it is: net of fees,
 * at the mark (mid of bid and ask), per share; colour always comes with a sign or a word.
 */

const SOURCE_NAMES: Record<Exclude<JournalRow["source"], "manual">, string> = {
  ibkr: "Interactive Brokers",
  tastytrade: "tastytrade",
  schwab: "Schwab",
  ofx: "an OFX/QFX statement",
  fidelity: "Fidelity",
  robinhood: "Robinhood",
  tdameritrade: "TD Ameritrade",
  etrade: "E*TRADE",
  tradier: "Tradier",
  webull: "Webull",
};

const KIND_LABELS: Record<JournalRow["kind"], string> = {
  stock_buy: "Bought shares",
  stock_sell: "Sold shares",
  sell_to_open: "Sold to open",
  buy_to_close: "Bought to close",
  expire: "Expired",
  assignment: "Assigned",
  exercise: "Called away",
  dividend: "Dividend",
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
            {o.awaiting_resolution ? (
              <AwaitingResolution option={o} />
            ) : (
              <dl className="journal-figures">
                <Figure term="Contracts">{o.contracts}</Figure>
                {o.option_type === "put" ? (
                  <Figure term="Collateral in use (strike × 100 × contracts)">{formatMoney(o.collateral)}</Figure>
                ) : (
                  <Figure term="Collateral (shares held against the call)">{callCover(o, options, lots)}</Figure>
                )}
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
            )}
            {o.awaiting_resolution ? null : <RollLink option={o} />}
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

/**
 * An option past its expiry day's close that the journal has not resolved (docs/decisions/0078):
 * no days held, collateral or mark, and links to record what the broker reports.
 */
function AwaitingResolution({ option }: { option: OpenOption }) {
  const name = `${option.ticker} ${option.strike} ${option.option_type}`;
  const itm = option.option_type === "put" ? "assignment" : "exercise";
  return (
    <div className="journal-card__resolution">
      <p className="journal-row__status">{RESOLVE_EXPIRY_TEXT.awaiting}</p>
      <p>{RESOLVE_EXPIRY_TEXT.hint}</p>
      <dl className="journal-figures">
        <Figure term="Contracts">{option.contracts}</Figure>
        <Figure term="Premium kept (net of fees)">{formatMoney(option.premium_kept)}</Figure>
      </dl>
      <p className="journal-actions">
        <Link
          to={resolveHref(option, "expire", option.expires_at)}
          aria-label={`${RESOLVE_EXPIRY_TEXT.recordExpired}: ${name}`}
        >
          {RESOLVE_EXPIRY_TEXT.recordExpired}
        </Link>
        <Link to={resolveHref(option, itm, option.expires_at)} aria-label={`${itmLabel(option)}: ${name}`}>
          {itmLabel(option)}
        </Link>
      </p>
    </div>
  );
}

const itmLabel = (option: OpenOption) =>
  option.option_type === "put" ? RESOLVE_EXPIRY_TEXT.recordAssigned : RESOLVE_EXPIRY_TEXT.recordCalledAway;

/**
 * A covered call's collateral is its shares, never "$0 cash-secured" (issue 41): the shares it
 * holds, or how many are missing for a call recorded before the journal refused uncovered calls.
 */
function callCover(option: OpenOption, options: OpenOption[], lots: ShareLot[]): string {
  const held = lots.find((lot) => lot.ticker === option.ticker)?.shares ?? 0;
  const needed = options
    .filter((o) => o.ticker === option.ticker && o.option_type === "call" && !o.awaiting_resolution)
    .reduce((sum, o) => sum + o.contracts * 100, 0);
  return held >= needed
    ? `${plural(option.contracts * 100, `share of ${option.ticker}`, `shares of ${option.ticker}`)}`
    : `Uncovered: ${needed} shares needed, ${held} held`;
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
              <CycleSteps steps={c.steps} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** One step of a cycle in words: what was done, at what strike or price (ADR 0079). */
function stepText(step: WheelCycleStep): string {
  const side = step.option_type === "call" ? "call" : "put";
  const contracts = plural(step.quantity, "contract");
  switch (step.kind) {
    case "sell_to_open":
      return `Sold ${contracts} of the ${step.strike} ${side} at ${formatMoney(step.price)}`;
    case "buy_to_close":
      return `Bought back the ${step.strike} ${side} at ${formatMoney(step.price)}`;
    case "expire":
      return `The ${step.strike} ${side} expired`;
    case "assignment":
      return `Assigned: ${plural(step.quantity * 100, "share")} at the strike ${formatMoney(step.strike ?? 0)}`;
    case "exercise":
      return `Called away: ${plural(step.quantity * 100, "share")} at the strike ${formatMoney(step.strike ?? 0)}`;
    case "stock_buy":
      return `Bought ${plural(step.quantity, "share")} at ${formatMoney(step.price)}`;
    case "stock_sell":
      return `Sold ${plural(step.quantity, "share")} at ${formatMoney(step.price)}`;
    case "dividend":
      return `Dividend of ${formatMoney(step.quantity * step.price)} (${plural(step.quantity, "share")} × ${formatMoney(step.price)})`;
  }
}

/** The cycle as it went, put → shares → calls → called away, with the adjusted basis after each step. */
function CycleSteps({ steps }: { steps: WheelCycleStep[] }) {
  if (steps.length === 0) return null;
  return (
    <ol className="journal-steps" aria-label="Step by step">
      {steps.map((step) => (
        <li key={step.trade_id} className="journal-step">
          <span className="journal-step__what">
            {formatDay(step.traded_at)} · {stepText(step)}
          </span>
          {step.adjusted_cost_basis !== null ? (
            <span className="journal-step__basis">
              {" "}
              · {plural(step.shares, "share")} held, adjusted basis {formatMoney(step.adjusted_cost_basis)} a share
            </span>
          ) : step.kind === "exercise" || step.kind === "stock_sell" ? (
            <span className="journal-step__basis"> · no shares left</span>
          ) : null}
        </li>
      ))}
    </ol>
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
            aria-label={`${trade.recorded_automatically ? RESOLVE_EXPIRY_TEXT.undo : "Delete"} ${KIND_LABELS[trade.kind]} ${trade.ticker} of ${formatDateTime(trade.traded_at)}`}
          >
            {trade.recorded_automatically ? RESOLVE_EXPIRY_TEXT.undo : "Delete"}
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
        {trade.source !== "manual" ? <span> · imported from {SOURCE_NAMES[trade.source]}</span> : null}
        {trade.recorded_automatically ? <span> · {RESOLVE_EXPIRY_TEXT.automatic}</span> : null}
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
