import { Form, Link } from "react-router";
import { PROFILE_CAPITAL_PATH } from "#app/lib/plan-paths.ts";
import type { Plan } from "#contract/plan.ts";
import { PLAN_INTENT } from "#app/routes/plan/intents.ts";
import { money, pctOf, putAgainstLevels } from "./plan-text.ts";

/** Committed collateral, shares at basis, reserve and free cash, each as a share of capital. */
export function PlanSummary({ plan }: { plan: Plan }) {
  const capital = plan.settings.capital;
  const share = (n: number) => (capital ? pctOf(n / capital) : "—");
  const rows: [string, string, number | null, string][] = [
    ["Capital for selling puts", "capital", capital, capital ? "100 %" : "—"],
    [
      "Committed collateral (open short puts, strike × 100 × contracts)",
      "committed",
      plan.committed,
      share(plan.committed),
    ],
    ["Shares held, at their adjusted basis", "shares", plan.shares_cost, share(plan.shares_cost)],
    ["Cash reserve kept free", "reserve", plan.reserve, plan.reserve === null ? "—" : share(plan.reserve)],
    ["Free cash for new puts", "free", plan.free_cash, plan.free_cash === null ? "—" : share(plan.free_cash)],
  ];
  return (
    <>
      <dl className="plan-summary">
        {rows.map(([label, id, value, of]) => (
          <div key={id} className={`plan-summary__row plan-summary__row--${id}`}>
            <dt>{label}</dt>
            <dd data-testid={`plan-${id}`}>
              <span className="plan-summary__value">{value === null ? "not set" : money(value)}</span>{" "}
              <span className="plan-summary__share">{of === "—" ? "" : `${of} of capital`}</span>
            </dd>
          </div>
        ))}
      </dl>
      <AwaitingResolution plan={plan} />
    </>
  );
}

/**
 * Puts past their expiry close that nobody recorded yet: they hold no cash, as on Trades
 * (docs/decisions/0078), so they are named here rather than counted as collateral in use.
 */
function AwaitingResolution({ plan }: { plan: Plan }) {
  if (plan.awaiting_resolution.length === 0) return null;
  return (
    <div className="plan-awaiting" data-testid="plan-awaiting">
      <p>Expired, awaiting resolution (not counted as collateral; record what your broker reports on Trades):</p>
      <ul>
        {plan.awaiting_resolution.map((p) => (
          <li key={`${p.ticker}-${p.strike}-${p.expiry}`}>
            {p.ticker} {p.strike} put × {p.contracts}, expired {p.expiry}, premium kept {money(p.premium_kept)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** If every open put were assigned: per ticker against the trader's levels and limits, then per sector. */
export function AssignmentTable({
  plan,
  sectorError,
}: {
  plan: Plan;
  sectorError: { ticker: string | null; error: string; typed: string } | null;
}) {
  if (plan.exposures.length === 0) {
    return <p className="plan-empty">No open puts and no shares: nothing would be assigned.</p>;
  }
  const tickerLimit = pctOf(plan.settings.ticker_limit);
  const sectorLimit = pctOf(plan.settings.sector_limit);
  return (
    <>
      <ul className="plan-assign" aria-label="If every open put were assigned">
        {plan.exposures.map((e) => {
          const error = sectorError?.ticker === e.ticker ? sectorError : null;
          return (
            <li key={e.ticker} id={`ticker-${e.ticker}`} className="plan-assign__item" data-testid="assignment-row">
              <p className="plan-assign__head">
                <strong>{e.ticker}</strong>: {e.shares_if_assigned.toLocaleString("en-US")} shares at{" "}
                {money(e.basis_if_assigned)} a share, {money(e.cost_if_assigned)} ={" "}
                <span data-testid="assignment-share">{pctOf(e.share_of_capital)}</span> of capital
                {e.over_limit ? (
                  <span className="plan-tag plan-tag--over"> over your {tickerLimit} limit</span>
                ) : e.share_of_capital !== null ? (
                  <span className="plan-tag"> within your {tickerLimit} limit</span>
                ) : null}
              </p>
              {e.shares_held > 0 ? (
                <p className="plan-assign__held">{e.shares_held} held now, at their adjusted basis</p>
              ) : null}
              <ul className="plan-assign__puts">
                {e.puts.map((p) => (
                  <li key={`${p.strike}-${p.expiry}`} data-testid="assignment-put">
                    {putAgainstLevels(p)} <span className="plan-assign__expiry">(expires {p.expiry})</span>
                  </li>
                ))}
              </ul>
              <Form method="post" className="plan-sector-form" preventScrollReset>
                <input type="hidden" name="ticker" value={e.ticker} />
                <label>
                  <span>Sector of {e.ticker}</span>
                  <input
                    name="sector"
                    defaultValue={error ? error.typed : e.sector}
                    maxLength={60}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `sector-error-${e.ticker}` : undefined}
                  />
                </label>
                <button type="submit" name="intent" value={PLAN_INTENT.sector} className="button button--small">
                  Save sector
                </button>
                {error ? (
                  <p id={`sector-error-${e.ticker}`} className="error-list" role="alert">
                    {error.error}
                  </p>
                ) : null}
              </Form>
            </li>
          );
        })}
      </ul>
      <table className="plan-table" data-testid="sector-table">
        <caption>By sector, if every open put were assigned (limit {sectorLimit})</caption>
        <thead>
          <tr>
            <th scope="col">Sector</th>
            <th scope="col">Cash</th>
            <th scope="col">Of capital</th>
          </tr>
        </thead>
        <tbody>
          {plan.sectors.map((s) => (
            <tr key={s.sector} className={s.over_limit ? "plan-table__over" : undefined}>
              <th scope="row">{s.sector}</th>
              <td>{money(s.cost_if_assigned)}</td>
              <td>
                {pctOf(s.share_of_capital)}
                {s.over_limit ? " — over the limit" : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** What to do when capital is not set, instead of guessing it. */
export function SetCapital() {
  return (
    <p className="plan-set-capital" role="status" data-testid="set-capital">
      Your capital for selling puts is not set, so free cash and limits cannot be worked out.{" "}
      <Link to={PROFILE_CAPITAL_PATH}>Set it on your profile</Link>.
    </p>
  );
}
