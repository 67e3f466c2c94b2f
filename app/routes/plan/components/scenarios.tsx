import { Form } from "react-router";
import type { Plan } from "#contract/plan.ts";
import { PLAN_PARAM } from "#app/routes/plan/intents.ts";
import { money, scenarioTitle } from "./plan-text.ts";

/**
 * The market lower at each expiry (docs/product.md#screens-plan): which puts end in the money, the
 * cash assignment takes, the loss at the scenario price against the premiums kept. Premiums are
 * net of the commissions paid to open; losses are before any assignment fee.
 */
export function Scenarios({ plan, custom }: { plan: Plan; custom: { typed: string; error: string | null } }) {
  return (
    <>
      <Form method="get" className="plan-move-form">
        <label htmlFor="plan-move">Custom move to each expiry, % (−15 = 15 % lower)</label>
        <div className="plan-move-form__row">
          <input
            id="plan-move"
            name={PLAN_PARAM.move}
            type="text"
            inputMode="decimal"
            defaultValue={custom.typed}
            aria-invalid={custom.error ? true : undefined}
            aria-describedby={custom.error ? "plan-move-error" : undefined}
          />
          <button type="submit" className="button button--small">
            Show
          </button>
        </div>
        {custom.error ? (
          <p id="plan-move-error" className="error-list" role="alert">
            {custom.error}
          </p>
        ) : null}
      </Form>
      {plan.puts.length === 0 ? <p className="plan-empty">No open puts to test.</p> : null}
      {plan.puts.length > 0
        ? plan.scenarios.map((s) => (
            <section
              key={`${s.move}-${s.custom}`}
              className="plan-scenario"
              data-testid="scenario"
              data-move={s.move}
              aria-label={scenarioTitle(s.move)}
            >
              <h3>
                {scenarioTitle(s.move)}
                {s.custom ? " (yours)" : ""}
              </h3>
              <p className="plan-scenario__totals">
                Cash if assigned <strong data-testid="scenario-cash">{money(s.cash_needed)}</strong> · loss at the
                scenario price <strong data-testid="scenario-loss">{money(s.loss_at_price)}</strong> · premiums kept{" "}
                {money(s.premium_kept)} · net <strong>{money(s.net)}</strong>
              </p>
              <ul className="plan-scenario__expiries">
                {s.expiries.map((e) => {
                  const itm = e.puts.filter((p) => p.in_the_money);
                  return (
                    <li key={e.expiry}>
                      <span className="plan-scenario__expiry">{e.expiry}:</span>{" "}
                      {itm.length === 0 ? (
                        "every put ends out of the money"
                      ) : (
                        <span data-testid="scenario-itm">
                          in the money{" "}
                          {itm
                            .map(
                              (p) => `${p.ticker} ${p.strike} × ${p.contracts} (at ${money(p.price_at_expiry ?? 0)})`,
                            )
                            .join(", ")}
                          ; cash {money(e.cash_needed)}, loss {money(e.loss_at_price)}
                        </span>
                      )}
                    </li>
                  );
                })}
              </ul>
            </section>
          ))
        : null}
      <p className="plan-note">
        Premiums kept are at the fill, net of the commissions paid to open; losses are at the scenario price, before any
        assignment fee. Collateral is cash-secured, not margin.
      </p>
    </>
  );
}
