import { Link, useActionData, useLoaderData } from "react-router";
import { PORTFOLIO_PATH } from "#app/lib/plan-paths.ts";
import type { Route } from "./+types/route";
import { loadPlan, planAction } from "./server.ts";
import { AssignmentTable, PlanSummary, SetCapital } from "./components/book.tsx";
import { CapitalBars } from "./components/capital-bars.tsx";
import { Scenarios } from "./components/scenarios.tsx";
import { BestPutsList } from "./components/best-puts.tsx";
import { usePlanLive } from "./components/live.tsx";

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

export default function PlanScreen() {
  const { plan, best, error, custom, recordHrefs, live } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  usePlanLive(live);

  return (
    <>
      <header className="page-header">
        <div className="page-header__title">
          <h1>Plan</h1>
        </div>
        <Link to={PORTFOLIO_PATH} className="plan-back">
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
              <BestPutsList best={best} recordHrefs={recordHrefs} />
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
