import type { Href } from "#app/lib/href.ts";
import { Link } from "react-router";
import type { TradeRecommendation } from "#contract/entities.ts";
import { INSIGHTS_PARAM as PARAM, INSIGHTS_PATH, passingStrike } from "#app/lib/insights.ts";
import { expiryChip, expiryLong } from "#app/lib/option-card.ts";
import { formatPercent, formatPrice } from "#app/lib/format.ts";
import { OptionCard } from "#app/components/option-card.tsx";
import { Spinner } from "#app/components/spinner.tsx";

/**
 * The expanded stock: date chips (MM/DD) for the expirations with options passing the strike
 * filter, and the option cards of the selected date (the first such date unless one was chosen).
 */
export function OptionsPanel({
  ticker,
  options,
  error,
  maxStrike,
  dates,
  date,
  listSearch,
  planFit,
  allFor = null,
}: {
  ticker: string;
  /** null while they load. */
  options: TradeRecommendation[] | null;
  error: string | null;
  maxStrike: number | null;
  /** The expirations with options passing the strike filter, soonest first. */
  dates: string[];
  /** The selected one (docs/product.md#states-option-card), null when no option passes. */
  date: string | null;
  listSearch: (change?: (params: URLSearchParams) => void) => string;
  /** The put's "fits your plan" block (ADR 0081), when the plan is known. */
  planFit?: ((option: TradeRecommendation) => React.ReactNode) | undefined;
  /** The date whose every passing put is shown (?all=), else only each date's best three. */
  allFor?: string | null;
}) {
  if (error) {
    return (
      <p className="list-error ins-panel__message" role="alert">
        {error}
      </p>
    );
  }
  if (!options) {
    return (
      <div className="ins-panel__loading">
        <Spinner label={`Loading recommendations for ${ticker}`} />
      </div>
    );
  }
  if (options.length === 0) {
    return <p className="ins-panel__message">No put of {ticker} passes your filters right now.</p>;
  }
  const nearest = options[0]!.nearest_above_conservative ? options[0]! : null;
  if (nearest) {
    // The conservative-value filter left nothing: say so, and show what the nearest strike would pay.
    return (
      <>
        <p className="ins-panel__message" role="status" data-testid="nearest-message">
          No put of {ticker} at or below your conservative value passes your filters. The nearest strike above it is $
          {formatPrice(nearest.strike_price)} ({expiryLong(nearest.expiration_date)}): bid ${formatPrice(nearest.bid)},{" "}
          {formatPercent(nearest.net_monthly_return)} a month net.
        </p>
        <div className="ins-options">
          <OptionCard
            option={nearest}
            href={`/recommendation/${nearest.id}${listSearch((p) => p.set(PARAM.open, ticker))}` satisfies Href}
            planFit={planFit?.(nearest)}
          />
        </div>
      </>
    );
  }
  if (!date) {
    return (
      <p className="ins-panel__message" role="status">
        No recommended put of {ticker} has a strike at or below ${formatPrice(maxStrike ?? 0)}.
      </p>
    );
  }
  const ofDate = passingStrike(options, maxStrike).filter((o) => o.expiration_date === date);
  // The best three of the date first (ranked); the rest that pass the filters on request (issue 46).
  const showAll = allFor === date;
  const ranked = ofDate.filter((o) => o.rank > 0);
  const shown = showAll || ranked.length === 0 ? ofDate : ranked;
  const withDate = (chosen: string) =>
    listSearch((p) => {
      p.set(PARAM.open, ticker);
      p.set(PARAM.date, chosen);
    });

  return (
    <>
      <nav className="ins-dates" aria-label={`${ticker} expiration dates`}>
        <ul>
          {dates.map((d) => (
            <li key={d}>
              <Link
                to={INSIGHTS_PATH + withDate(d)}
                replace
                preventScrollReset
                className="ins-chip"
                aria-current={d === date ? "true" : undefined}
                aria-label={expiryLong(d)}
              >
                {expiryChip(d)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="ins-options" data-date={date}>
        {shown.map((option) => (
          <OptionCard
            key={option.id}
            option={option}
            href={`/recommendation/${option.id}${withDate(date)}` satisfies Href}
            planFit={planFit?.(option)}
          />
        ))}
      </div>
      {shown.length < ofDate.length ? (
        <p className="ins-show-all">
          <Link
            to={
              INSIGHTS_PATH +
              listSearch((p) => {
                p.set(PARAM.open, ticker);
                p.set(PARAM.date, date);
                p.set(PARAM.all, date);
              })
            }
            replace
            preventScrollReset
            className="button"
            data-testid="show-all"
          >
            Show all {ofDate.length} puts of {expiryLong(date)}
          </Link>
        </p>
      ) : null}
    </>
  );
}
