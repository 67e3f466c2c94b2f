import type { Href } from "#app/lib/href.ts";
import { Link } from "react-router";
import { recommendationPath } from "#app/lib/plan-paths.ts";
import type { BestPuts } from "#contract/plan.ts";
import { formatPercent, formatPrice } from "#app/lib/format.ts";
import { expiryLong } from "#app/lib/option-card.ts";
import { money } from "./plan-text.ts";

/**
 * "What should I sell today?" (docs/product.md#screens-plan): the top puts over the trader's flagged
 * stocks by their own score (ADR 0022), one contract each and one per ticker, each fitting the
 * free cash and limits with the ones above it; the running total never passes the free cash.
 */
export function BestPutsList({ best, recordHrefs }: { best: BestPuts; recordHrefs: Record<number, string> }) {
  if (best.capital === null) return null;
  if (best.picks.length === 0) {
    return (
      <p className="plan-empty" data-testid="best-puts-empty">
        No recommended put of your flagged stocks fits your free cash and limits right now.
      </p>
    );
  }
  return (
    <ol className="plan-best" aria-label="Best puts across your plan" data-testid="best-puts">
      {best.picks.map((pick) => {
        const r = pick.recommendation;
        return (
          <li
            key={r.id}
            className="plan-best__item"
            data-testid="best-put"
            data-cash={pick.cash}
            data-running-total={pick.running_total}
          >
            <p className="plan-best__head">
              <Link to={recommendationPath(r.id)}>
                <strong>{pick.fit.ticker}</strong> ${formatPrice(r.strike_price)} put, {expiryLong(r.expiration_date)}
              </Link>
            </p>
            <p className="plan-best__figures">
              Bid ${formatPrice(r.bid)} · {formatPercent(r.net_monthly_return)} a month net of $
              {formatPrice(r.commission)} a contract · 1 contract uses {money(pick.cash)} ·{" "}
              <span data-testid="running-total">{money(pick.running_total)}</span> used so far of{" "}
              {money(best.free_cash ?? 0)} free
            </p>
            <Link className="plan-best__record" to={recordHrefs[r.id] ?? ("/add-trade" satisfies Href)}>
              Record this trade
            </Link>
          </li>
        );
      })}
    </ol>
  );
}
