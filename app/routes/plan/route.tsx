import { useEffect, useRef } from "react";
import { href, Link, useActionData, useLoaderData, useRevalidator } from "react-router";
import type { Route } from "./+types/route";
import { WS_TRADE_UPDATES } from "#contract/ws-paths.ts";
import { LIVE_COUNT_RELOAD_MS } from "#app/lib/insights.ts";
import { useTradeUpdates } from "#app/hooks/use-live-updates.ts";
import { LiveStatusBadge } from "#app/components/live-status.tsx";
import { loadPlan, planAction } from "./server.ts";
import { AssignmentTable, PlanSummary, SetCapital } from "./components/book.tsx";
import { CapitalBars } from "./components/capital-bars.tsx";
import { Scenarios } from "./components/scenarios.tsx";
import { BestPutsList } from "./components/best-puts.tsx";

/**
 * The Plan (docs/product.md#screens-plan, ADR 0081): the trader's book, not a pile of puts. Server
 * rendered; the best puts are read again when new recommendations arrive (live relay).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return loadPlan(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return planAction(request, context);
}

/** New recommendations of a flagged stock may change the best puts: read again once per burst. */
function useBestPutsLive() {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  useEffect(() => {
    latest.current = revalidator;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useTradeUpdates((update) => {
    if (update.type !== "trade_recommendations_update" || timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void latest.current.revalidate();
    }, LIVE_COUNT_RELOAD_MS);
  });
}

export default function PlanScreen() {
  const { plan, best, error, custom } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  useBestPutsLive();

  return (
    <>
      <header className="page-header">
        <div className="page-header__title">
          <h1>Plan</h1>
          <LiveStatusBadge path={WS_TRADE_UPDATES} />
        </div>
        <Link to={href("/portfolio")} className="plan-back">
          Trades
        </Link>
      </header>
      {error || !plan ? (
        <p className="list-error" role="alert">
          {error}
        </p>
      ) : (
        <div className="plan">
          {plan.settings.capital === null ? <SetCapital /> : null}
          <section className="card" aria-labelledby="plan-cash">
            <h2 id="plan-cash" className="card__title">
              Cash
            </h2>
            <PlanSummary plan={plan} />
          </section>

          <section className="card" aria-labelledby="plan-assigned">
            <h2 id="plan-assigned" className="card__title">
              If every open put were assigned
            </h2>
            <CapitalBars plan={plan} />
            <AssignmentTable plan={plan} sectorError={actionData?.sector ?? null} />
          </section>

          {best && best.capital !== null ? (
            <section className="card" aria-labelledby="plan-best">
              <h2 id="plan-best" className="card__title">
                Best puts across your plan
              </h2>
              <BestPutsList best={best} />
            </section>
          ) : null}

          <section className="card" aria-labelledby="plan-scenarios">
            <h2 id="plan-scenarios" className="card__title">
              Scenarios
            </h2>
            <Scenarios plan={plan} custom={custom} />
          </section>
        </div>
      )}
    </>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Plan · PutSeller" }];
