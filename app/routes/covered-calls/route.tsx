import type { Href } from "#app/lib/href.ts";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/route";
import { requireUser } from "#app/server/auth.server.ts";
import { RecommendationTabs } from "./components/recommendation-tabs.tsx";
import { coveredCallsAction, loadCoveredCalls, NO_STORE } from "./server.ts";
import { CallFiltersForm } from "./components/call-filters-form.tsx";
import { HoldingCard } from "./components/holding-card.tsx";

/**
 * Covered calls (/insights/calls, docs/product.md#screens-covered-calls, ADR 0079): the calls the
 * trader can sell against the shares their journal holds, beside the put recommendations.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context);
  return loadCoveredCalls(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  requireUser(context);
  return coveredCallsAction(request, context);
}

export const headers: Route.HeadersFunction = () => NO_STORE;

export default function CoveredCallsScreen() {
  const { screen, error, filters, filtersError, numericFields, recordHrefs } = useLoaderData<typeof loader>();
  const floorName =
    screen?.filters.at_or_above_base_value && !screen.filters.at_or_above_basis
      ? "base value"
      : screen?.filters.at_or_above_base_value
        ? "adjusted basis and base value"
        : "adjusted basis";
  return (
    <>
      <header className="page-header">
        <div className="page-header__title">
          <h1>Recommendations</h1>
        </div>
      </header>
      <RecommendationTabs current="calls" />
      <CallFiltersForm values={filters} error={filtersError} fields={numericFields} />

      {error ? (
        <p className="list-error" role="alert">
          {error}
        </p>
      ) : null}

      {screen && screen.holdings.length === 0 ? (
        <div className="ins-empty" data-testid="no-holdings">
          <p>No shares in your journal.</p>
          <p className="ins-empty__hint">
            Shares from an assigned put or a purchase show here with the calls you can sell against them. Record them in{" "}
            <Link to={"/portfolio" satisfies Href}>your trades</Link>.
          </p>
        </div>
      ) : null}

      {screen && screen.holdings.length > 0 ? (
        <ul className="ins-list" aria-label="Your holdings">
          {screen.holdings.map((holding) => (
            <HoldingCard
              key={holding.ticker}
              holding={holding}
              commission={screen.commission}
              floorName={floorName}
              recordHrefs={recordHrefs}
            />
          ))}
        </ul>
      ) : null}
    </>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Covered calls · PutSeller" }];
