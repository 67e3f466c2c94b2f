import { Link } from "react-router";
import type { CoveredCall } from "#contract/covered-calls.ts";
import { formatGreek, formatPercent, formatPrice } from "#app/lib/format.ts";
import { longDate } from "#app/routes/covered-calls/dates.ts";
import { AlertIcon } from "#app/components/icons.tsx";

/** The weekday before a YYYY-MM-DD ex-date: the last day a holder can exercise to collect the dividend. */
function dayBefore(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  do day.setUTCDate(day.getUTCDate() - 1);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6);
  return longDate(day.toISOString().slice(0, 10));
}

/**
 * One call the trader can sell against shares held (docs/product.md#screens-covered-calls, ADR 0079):
 * every figure says what it is: the bid or the mid, net of commission, on the price today or on the
 * adjusted basis, risk-neutral or the delta shortcut.
 */
export function CallCard({
  call,
  ticker,
  spot,
  adjustedBasis,
  commission,
  exDividend,
  earningsDate,
  recordHref,
}: {
  call: CoveredCall;
  ticker: string;
  spot: number;
  adjustedBasis: number;
  commission: number;
  exDividend: { date: string; amount: number } | null;
  earningsDate: string | null;
  /** Add Trade's options form filled in with this call at the bid (built by the loader). */
  recordHref: string;
}) {
  const itm = call.strike < spot;
  // Each return names its base (ADR 0079): "if unchanged" is on today's price, "if called away" on
  // the adjusted basis; two figures side by side over different bases must say so.
  const onPrice = `If unchanged (on $${formatPrice(spot)} price)`;
  const onBasis = `If called away (on $${formatPrice(adjustedBasis)} basis)`;
  return (
    <article className="ins-option cc-call" data-testid="call-card" data-option={call.occ_symbol}>
      <header className="ins-option__head">
        <h4 className="ins-option__title">
          <span data-testid="strike">${formatPrice(call.strike)}</span> call
          <span className="visually-hidden">, expires {longDate(call.expiry)}</span>
        </h4>
        <span className={`ins-badge ins-badge--${itm ? "itm" : "otm"}`} data-testid="moneyness">
          {itm ? "ITM" : "OTM"}
        </span>
      </header>

      <dl className="ins-figures">
        <Figure label="Premium (bid)" testId="premium">
          ${formatPrice(call.bid)}
        </Figure>
        <Figure label="Mid" testId="mid">
          ${formatPrice(call.mid)}
        </Figure>
        <Figure label={`${onPrice}, monthly, net`} testId="unchanged-monthly" strong>
          {formatPercent(call.return_if_unchanged_monthly)}
        </Figure>
        <Figure label={`${onBasis}, monthly, net`} testId="called-monthly" strong>
          {call.return_if_called_monthly === null ? "—" : formatPercent(call.return_if_called_monthly)}
        </Figure>
      </dl>
      <dl className="ins-figures ins-figures--extra">
        <Figure label={`${onPrice}, annualised, net`} testId="unchanged-annualised">
          {formatPercent(call.return_if_unchanged_annualised)}
        </Figure>
        <Figure label={`${onBasis}, annualised, net`} testId="called-annualised">
          {call.return_if_called_annualised === null ? "—" : formatPercent(call.return_if_called_annualised)}
        </Figure>
        <Figure label="Chance of being called (risk-neutral)" testId="chance-called">
          {call.chance_called === null ? "—" : formatPercent(call.chance_called)}
        </Figure>
        <Figure label="Delta (shortcut)" testId="delta">
          {call.delta === null ? "—" : formatGreek(call.delta)}
        </Figure>
        <Figure label="Breakeven" testId="breakeven">
          ${formatPrice(call.breakeven)}
        </Figure>
        <Figure label="Expiry" testId="expiry">
          {longDate(call.expiry)}
        </Figure>
      </dl>
      <p className="ins-option__basis" data-testid="net-basis">
        Net of ${formatPrice(commission)} a contract, over {call.days_to_expiry} days. If unchanged: the $
        {formatPrice(call.time_value)} time value over the ${formatPrice(spot)} price
        {call.intrinsic_value > 0 ? ` ($${formatPrice(call.intrinsic_value)} of the bid is the shares' own value)` : ""}
        . If called away: bid + strike − your ${formatPrice(adjustedBasis)} adjusted basis, over that basis.
      </p>

      {call.early_assignment_risk || call.ex_dividend_before_expiry || call.earnings_before_expiry ? (
        <ul className="ins-notes">
          {call.early_assignment_risk && exDividend ? (
            <li className="ins-note ins-note--warning" data-testid="early-assignment">
              <AlertIcon aria-hidden="true" />
              Early assignment risk: in the money with ${formatPrice(Math.max(0, call.mid - call.intrinsic_value))} of
              time value at the mid, below the ${formatPrice(exDividend.amount)} dividend; the holder may exercise on{" "}
              {dayBefore(exDividend.date)}.
            </li>
          ) : null}
          {call.ex_dividend_before_expiry && exDividend ? (
            <li className="ins-note" data-testid="ex-dividend-note">
              Ex-dividend on {longDate(exDividend.date)} (${formatPrice(exDividend.amount)}) before expiry
            </li>
          ) : null}
          {call.earnings_before_expiry ? (
            <li className="ins-note ins-note--warning" data-testid="earnings-warning">
              <AlertIcon aria-hidden="true" />
              Earnings {earningsDate ? `on ${longDate(earningsDate)} ` : ""}before expiry: ranked lower
            </li>
          ) : null}
        </ul>
      ) : null}
      <p className="cc-call__record">
        <Link to={recordHref} className="button">
          Record this trade
          <span className="visually-hidden">
            : sell the {ticker} {formatPrice(call.strike)} call expiring {longDate(call.expiry)}
          </span>
        </Link>
      </p>
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
