import { Link } from "react-router";
import type { TradeRecommendation } from "#contract/entities.ts";
import { formatGreek, formatLevel, formatPercent, formatPrice } from "#app/lib/format.ts";
import {
  BUY_LEVEL_LABEL,
  DISTANCE_BAND_LABEL,
  expiryLong,
  LAST_TRADE_NOTE,
  moneyness,
  premiumLabel,
  priceTrend,
  quoteProvenance,
  strikeDistance,
  TREND_LABEL,
  type Trend,
} from "#app/lib/option-card.ts";
import { OPENED_HERE } from "./confirm-dialog.tsx";
import { AlertIcon, TrendDownIcon, TrendFlatIcon, TrendUpIcon } from "./icons.tsx";

/** Daily at-the-money IVs needed before IV rank and percentile mean anything. */
const IV_HISTORY_NEEDED = 20;

const TREND_ICON: Record<Trend, typeof TrendUpIcon> = { up: TrendUpIcon, down: TrendDownIcon, neutral: TrendFlatIcon };

/** The option price against its weekly range: an arrow whose shape (not only its colour) says which way. */
function TrendBadge({ trend }: { trend: Trend }) {
  const Icon = TREND_ICON[trend];
  return (
    <span className={`ins-trend ins-trend--${trend}`} data-trend={trend} title={TREND_LABEL[trend]}>
      <Icon aria-hidden="true" />
      <span className="visually-hidden">{TREND_LABEL[trend]}</span>
    </span>
  );
}

/** ITM or OTM, in words. */
export function MoneynessBadge({ strike, stockPrice }: { strike: number; stockPrice: number }) {
  const value = moneyness(strike, stockPrice);
  return (
    <span className={`ins-badge ins-badge--${value.toLowerCase()}`} data-testid="moneyness">
      {value}
    </span>
  );
}

/** IV rank and percentile, or how far the history behind them has come ("building: n of 20 days"). */
export function ivStanding(option: Pick<TradeRecommendation, "iv_rank" | "iv_percentile" | "iv_history_days">): string {
  if (option.iv_rank === null || option.iv_percentile === null) {
    return `building: ${Math.min(option.iv_history_days, IV_HISTORY_NEEDED)} of ${IV_HISTORY_NEEDED} days`;
  }
  return `rank ${formatPercent(option.iv_rank, 0)} · percentile ${formatPercent(option.iv_percentile, 0)}`;
}

/**
 * One recommended put (docs/product.md#states-option-card): strike, premium at the bid with the mid
 * beside it, the monthly return net of the trader's commission (on the time value alone for an
 * in-the-money put), expiry, moneyness, the strike's distance from the price with its band, the
 * trend icon, and the figures a seller acts on, each labelled for what it is (ADR 0022). The whole
 * card opens the option detail (its title is the link).
 */
export function OptionCard({
  option,
  href,
  planFit,
}: {
  option: TradeRecommendation;
  href: string;
  /** Whether the put fits the trader's plan (ADR 0081), when known. */
  planFit?: React.ReactNode;
}) {
  const distance = strikeDistance(option.strike_price, option.current_stock_price);
  const trend = priceTrend(
    option.current_option_price,
    option.option_weekly_low_price,
    option.option_weekly_high_price,
  );
  const sideText = distance.side === "at" ? "at the price" : `${distance.side} the price`;

  return (
    <article
      className="ins-option"
      data-testid="option-card"
      data-id={option.id}
      data-option={option.option_identifier}
    >
      <header className="ins-option__head">
        <h3 className="ins-option__title">
          <Link to={href} state={OPENED_HERE} preventScrollReset className="ins-option__link">
            <span data-testid="strike">${formatPrice(option.strike_price)}</span> put
            <span className="visually-hidden">, expires {expiryLong(option.expiration_date)}</span>
          </Link>
        </h3>
        <MoneynessBadge strike={option.strike_price} stockPrice={option.current_stock_price} />
        <TrendBadge trend={trend} />
      </header>

      <dl className="ins-figures">
        <Figure label={premiumLabel(option.bid_source)} testId="premium">
          ${formatPrice(option.current_option_price)}
        </Figure>
        <Figure label="Mid" testId="mid">
          ${formatPrice(option.mid)}
        </Figure>
        <Figure label="Monthly, net" testId="roi" strong>
          {formatPercent(option.net_monthly_return)}
        </Figure>
        <Figure label="Expiry" testId="expiry">
          {expiryLong(option.expiration_date)}
        </Figure>
      </dl>

      <p className={`ins-distance ins-distance--${distance.band}`} data-testid="distance" data-band={distance.band}>
        <span className="ins-distance__meter" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
        <span>
          ${formatPrice(distance.dollars)} ({distance.percentText}) {sideText}
        </span>
        <span className="ins-distance__band">{DISTANCE_BAND_LABEL[distance.band]}</span>
      </p>

      <dl className="ins-figures ins-figures--extra">
        <Figure label="Annualised, net" testId="annualized">
          {formatPercent(option.net_annualized_return)}
        </Figure>
        <Figure label="Above T-bills" testId="excess">
          {formatPercent(option.excess_return)}
        </Figure>
        <Figure label="Breakeven" testId="breakeven">
          ${formatPrice(option.breakeven)}
        </Figure>
        <Figure label="Collateral" testId="collateral">
          ${formatLevel(option.collateral)}
        </Figure>
        <Figure label="Chance of profit" testId="pop">
          {formatPercent(option.probability_of_profit)}
        </Figure>
        <Figure label="Chance of assignment (risk-neutral)" testId="assignment">
          {option.probability_of_assignment === null ? "—" : formatPercent(option.probability_of_assignment)}
        </Figure>
        <Figure label="|Delta| (shortcut)" testId="abs-delta">
          {formatGreek(Math.abs(option.delta))}
        </Figure>
        <Figure label="Implied vol." testId="iv-standing">
          {ivStanding(option)}
        </Figure>
      </dl>
      <p className="ins-option__basis" data-testid="net-basis">
        Net of ${formatPrice(option.commission)} a contract
        {option.intrinsic_value > 0
          ? `, on the $${formatPrice(option.time_value)} time value ($${formatPrice(option.intrinsic_value)} of the premium is intrinsic)`
          : ""}
        ; T-bills pay {formatPercent(option.tbill_return, 2)} over the same {option.days_to_expiry} days.
      </p>
      <p className="ins-option__source" data-testid="option-source" suppressHydrationWarning>
        {quoteProvenance(option)}
        {option.bid_source === "last" ? <span data-testid="last-trade-note"> · {LAST_TRADE_NOTE}</span> : null}
      </p>

      {option.buy_level || option.earnings_before_expiry ? (
        <ul className="ins-notes">
          {option.buy_level ? (
            <li className="ins-note ins-note--level" data-testid="buy-level">
              At or below the {BUY_LEVEL_LABEL[option.buy_level]}
            </li>
          ) : null}
          {option.earnings_before_expiry ? (
            <li className="ins-note ins-note--warning" data-testid="earnings-warning">
              <AlertIcon aria-hidden="true" />
              Earnings {option.earnings_date ? `on ${expiryLong(option.earnings_date)} ` : ""}before expiry: ranked
              lower
            </li>
          ) : null}
        </ul>
      ) : null}
      {planFit}
    </article>
  );
}

function Figure({
  label,
  testId,
  strong,
  children,
}: {
  label: string;
  testId: string;
  strong?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className={strong ? "ins-figure ins-figure--strong" : "ins-figure"}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}
