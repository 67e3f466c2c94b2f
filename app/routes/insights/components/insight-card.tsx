import type { Href } from "#app/lib/href.ts";
import { useId, type ReactNode } from "react";
import { Link } from "react-router";
import type { TopLineRecommendation } from "#contract/entities.ts";
import { formatPercent, formatPrice, truncateName } from "#app/lib/format.ts";
import { ChevronDownIcon } from "#app/components/icons.tsx";
import { StockLogo } from "#app/components/stock-logo.tsx";
import { AgeText } from "#app/components/age-text.tsx";

/**
 * One stock of the Recommendations list (docs/product.md#screens-insights): its top-line summary and an 'Expand' /
 * 'Collapse' link. The link's address names the expanded stock, so it works without JavaScript;
 * with it the list follows the link in place. Only the expanded card renders its options.
 */
export function InsightCard({
  item,
  logoSrc,
  now,
  expanded,
  toggleHref,
  conservativeFilter = false,
  anchor,
  children,
}: {
  item: TopLineRecommendation;
  /** Whether 'Only strikes at or below my conservative value' is on: then whose value it uses is said. */
  conservativeFilter?: boolean;
  logoSrc: string | null;
  /** The server's clock at render, in ms: the age text moves on from it by itself (AgeText). */
  now: number;
  expanded: boolean;
  toggleHref: string;
  /** The card's id, for a link to land on it. */
  anchor?: string | undefined;
  /** The expanded card's panel: date chips and option cards. */
  children?: ReactNode;
}) {
  const panelId = useId();
  const count = item.trade_recommendation_count;
  return (
    <li className="ins-card" id={anchor} data-ticker={item.ticker} data-expanded={expanded || undefined}>
      <div className="ins-card__head">
        <StockLogo ticker={item.ticker} src={logoSrc} />
        <div className="ins-card__id">
          <h2 className="ins-card__ticker">{item.ticker}</h2>
          <p className="ins-card__name">{truncateName(item.stock_name)}</p>
        </div>
        <p className="ins-card__price">
          {/* No average_iv here (nor a colour from it): the top line's is the intrinsic value of whoever
              generated last, their own private figure, not this user's. */}
          <span data-testid="price">{formatPrice(item.current_price)}</span>
          <span className="ins-card__count" data-testid="count">
            {count === 0 ? "No puts passed" : `${count} ${count === 1 ? "put" : "puts"}`}
          </span>
        </p>
      </div>
      <dl className="ins-card__stats">
        <div>
          <dt>Implied vol.</dt>
          <dd data-testid="implied-volatility">
            {item.implied_volatility > 0 ? formatPercent(item.implied_volatility, 2) : "—"}
          </dd>
        </div>
        <div>
          <dt>Historical vol.</dt>
          <dd data-testid="historical-volatility">{formatPercent(item.historical_volatility, 2)}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd data-testid="age">
            <AgeText since={item.recommendation_date} serverNow={now} />
          </dd>
        </div>
      </dl>
      {conservativeFilter ? <ConservativeNotice item={item} /> : null}
      <Link
        to={toggleHref}
        replace
        preventScrollReset
        className="ins-card__toggle"
        aria-expanded={expanded}
        aria-controls={expanded ? panelId : undefined}
      >
        {expanded ? "Collapse" : "Expand"}
        <span className="visually-hidden"> {item.ticker}</span>
        <ChevronDownIcon aria-hidden="true" className="ins-card__chevron" />
      </Link>
      {expanded ? (
        <div className="ins-card__panel" id={panelId} role="region" aria-label={`${item.ticker} recommendations`}>
          {children}
        </div>
      ) : null}
    </li>
  );
}

/**
 * A conservative value of 0 means "not set" (ADR 0083): the filter then uses the UIP list's value or
 * none at all, and the card says which, so a missing value never reads as "no limit" unannounced.
 */
function ConservativeNotice({ item }: { item: TopLineRecommendation }) {
  if (item.conservative_source === "uip") {
    return (
      <p className="ins-card__notice" data-testid="conservative-notice">
        Your conservative value for {item.ticker} is not set: puts are held to the UIP list&rsquo;s $
        {formatPrice(item.conservative_iv ?? 0)}.{" "}
        <Link to={"/user-stocks" satisfies Href}>Set yours in your watchlist</Link>.
      </p>
    );
  }
  if (item.conservative_source === "none") {
    return (
      <p className="ins-card__notice" data-testid="conservative-notice">
        No conservative value is set for {item.ticker}, so none holds its puts back.{" "}
        <Link to={"/user-stocks" satisfies Href}>Set one in your watchlist</Link>.
      </p>
    );
  }
  return null;
}
