import type { Href } from "#app/lib/href.ts";
import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/route";
import type { RollCandidate, RollCandidates } from "#contract/rolls.ts";
import { formatMoney } from "#app/lib/trade-journal.ts";
import { formatPercent } from "#app/lib/format.ts";
import type { RollIntent } from "#app/lib/roll-form.ts";
import { ROLL_FORM } from "#app/lib/form-schemas.ts";
import { useSchemaForm } from "#app/hooks/use-schema-form.ts";
import { recordRollHref, ROLL_TEXT, rollHref } from "#app/lib/roll-link.ts";
import { loadRollCandidates, rollAction } from "./server.ts";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { Modal } from "#app/components/modal.tsx";
import { BackIcon } from "#app/components/icons.tsx";
import { orUnavailable } from "#app/server/unavailable.server.ts";

/**
 * Roll candidates of an open short put or covered call (docs/product.md#screens-roll-candidates);
 * `?strike&expiry&bid` opens "Record this roll".
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  return orUnavailable(loadRollCandidates(request, params, context));
}

export function action({ request, params, context }: Route.ActionArgs) {
  return rollAction(request, params, context);
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const formatDay = (iso: string) => day.format(new Date(`${iso}T00:00:00Z`));
const perShare = (value: number) => `${formatMoney(value)} a share`;

export default function RollCandidatesScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { tradeId, rolls, error, form } = loaderData;
  const location = useLocation();
  return (
    <>
      <header className="page-header">
        <Link to={"/portfolio" satisfies Href} className="icon-button" aria-label="Back to trades">
          <BackIcon />
        </Link>
        <h1>{ROLL_TEXT.title}</h1>
        <span className="page-header__spacer" aria-hidden="true" />
      </header>
      <main className="rolls">
        {rolls ? <Position rolls={rolls} /> : <p role="alert">{error}</p>}
        {rolls ? <p className="rolls__rule">{ROLL_TEXT.rule(rolls.position.option_type)}</p> : null}
        {rolls && rolls.candidates.length === 0 ? (
          <p className="rolls__none" role="status">
            {ROLL_TEXT.none(formatMoney(rolls.closing_cost))}
          </p>
        ) : null}
        {rolls && rolls.candidates.length > 0 ? (
          <ol className="journal-cards" aria-label={ROLL_TEXT.title}>
            {rolls.candidates.map((c) => (
              <Candidate
                key={c.occ_symbol}
                tradeId={tradeId}
                type={rolls.position.option_type}
                candidate={c}
                earningsDate={rolls.earnings_date}
              />
            ))}
          </ol>
        ) : null}
      </main>
      {rolls && form ? (
        <Modal title={ROLL_TEXT.recordTitle} closeTo={rollHref(tradeId)} className="modal--sheet">
          <RollForm
            action={`${rollHref(tradeId)}${location.search}`}
            rolls={rolls}
            defaultValue={form}
            lastResult={actionData?.result}
          />
        </Modal>
      ) : null}
    </>
  );
}

/** A term and its value; the term names the figure, unit and basis. */
function Figure({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="journal-figure">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Position({ rolls }: { rolls: RollCandidates }) {
  const p = rolls.position;
  return (
    <section aria-labelledby="roll-position" className="journal-card">
      <h2 id="roll-position" className="journal-card__title">
        Short {rolls.ticker} {p.strike} {p.option_type} · exp {formatDay(p.expiry)} · {p.contracts}{" "}
        {p.contracts === 1 ? "contract" : "contracts"}
      </h2>
      {p.tested ? <p className="roll-status">{ROLL_TEXT.tested(p.option_type)}</p> : null}
      {p.losing ? <p className="roll-status">{ROLL_TEXT.losing(p.option_type)}</p> : null}
      <dl className="journal-figures">
        <Figure term={`Stock price (as of ${new Date(rolls.as_of).toISOString().slice(0, 16).replace("T", " ")} UTC)`}>
          {formatMoney(rolls.spot)}
        </Figure>
        <Figure term="Buy back now (the ask)">{perShare(p.close_ask)}</Figure>
        <Figure term="Premium collected over the position's life (net of fees and buy-backs)">
          {perShare(p.premium_collected)}
        </Figure>
        {p.adjusted_cost_basis === null ? null : (
          <Figure term="Adjusted basis of the shares (cost less every premium of the cycle)">
            {perShare(p.adjusted_cost_basis)}
          </Figure>
        )}
        <Figure term="Commission per contract, each trade">{formatMoney(rolls.commission)}</Figure>
        <Figure term="Closing the position now (ask × 100 × contracts + commissions)">
          {formatMoney(rolls.closing_cost)}
        </Figure>
      </dl>
    </section>
  );
}

function Candidate({
  tradeId,
  type,
  candidate: c,
  earningsDate,
}: {
  tradeId: number;
  type: "put" | "call";
  candidate: RollCandidate;
  earningsDate: string | null;
}) {
  const name = `${c.strike} ${type} · exp ${formatDay(c.expiry)}`;
  return (
    <li className="journal-card" aria-label={`#${c.rank}: ${name}`}>
      <p className="journal-card__title">
        #{c.rank} · {name} <span className="journal-card__occ">+{c.extra_days} days</span>
      </p>
      <dl className="journal-figures">
        <Figure term="Net credit (new bid − ask to close − 2 commissions)">
          {perShare(c.net_credit)} · {formatMoney(c.net_credit_per_contract)} a contract ·{" "}
          {formatMoney(c.net_credit_total)} in all
        </Figure>
        {c.new_breakeven === null ? null : (
          <Figure term="New breakeven (new strike − premium collected over the life, this credit included)">
            {formatMoney(c.new_breakeven)}
          </Figure>
        )}
        {c.gain_if_called_away === null ? null : (
          <Figure term="Gain if called away at the new strike (new strike + this credit − adjusted basis)">
            {perShare(c.gain_if_called_away)}
          </Figure>
        )}
        <Figure term="Credit per extra day, per contract">{formatMoney(c.credit_per_extra_day)}</Figure>
        <Figure term={`New ${type}'s bid / ask`}>
          {formatMoney(c.bid)} / {formatMoney(c.ask)}
        </Figure>
        <Figure term={`|Delta| of the new ${type}`}>{c.abs_delta === null ? "—" : c.abs_delta.toFixed(2)}</Figure>
        <Figure
          term={
            type === "put"
              ? "Chance of assignment (risk-neutral, N(−d2))"
              : "Chance of being called away (risk-neutral, N(d2))"
          }
        >
          {c.assignment_probability === null ? "—" : formatPercent(c.assignment_probability)}
        </Figure>
        <Figure term="Earnings before the new expiry">
          {c.earnings_before_expiry && earningsDate ? `Yes, ${formatDay(earningsDate)}` : "No"}
        </Figure>
      </dl>
      <p className="roll-link">
        <Link
          to={recordRollHref(tradeId, c)}
          preventScrollReset
          className="button"
          aria-label={`${ROLL_TEXT.record}: ${name}`}
        >
          {ROLL_TEXT.record}
        </Link>
      </p>
    </li>
  );
}

const INTENT: RollIntent = "record-roll";

/** The roll as two trades, filled in from the candidate; every value comes back with the errors. */
function RollForm({
  action,
  rolls,
  defaultValue,
  lastResult,
}: {
  action: string;
  rolls: RollCandidates;
  defaultValue: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { form, fields, formProps } = useSchemaForm({
    id: "roll-draft",
    schema: ROLL_FORM,
    defaultValue,
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const amount = (
    name: "contracts" | "closePrice" | "closeFees" | "strike" | "openPrice" | "openFees",
    label: string,
  ) => {
    const { min: _min, max: _max, step: _step, ...props } = getInputProps(fields[name], { type: "text" });
    return (
      <Field
        labelProps={{ children: label }}
        inputProps={{ ...props, inputMode: "decimal", autoComplete: "off" }}
        errors={fields[name].errors}
      />
    );
  };
  const p = rolls.position;
  return (
    <Form method="post" action={action} {...formProps} className="trade-form">
      <div className="trade-form__body">
        <ErrorList id={form.errorId} errors={form.errors} />
        <p>
          Buy back the {rolls.ticker} {p.strike} {p.option_type} expiring {formatDay(p.expiry)} and sell the new{" "}
          {p.option_type}, both now.
        </p>
        {amount("contracts", "Contracts")}
        <div className="trade-form__row">
          {amount("closePrice", "Buy-back price per share")}
          {amount("closeFees", "Buy-back fees ($)")}
        </div>
        <div className="trade-form__row">
          {amount("strike", "New strike")}
          <Field
            labelProps={{ children: "New expiry" }}
            inputProps={getInputProps(fields.expiry, { type: "date" })}
            errors={fields.expiry.errors}
          />
        </div>
        <div className="trade-form__row">
          {amount("openPrice", "New premium per share")}
          {amount("openFees", `New ${p.option_type}'s fees ($)`)}
        </div>
        <Field
          labelProps={{ children: "Date and time (UTC)" }}
          inputProps={getInputProps(fields.tradedAt, { type: "datetime-local" })}
          errors={fields.tradedAt.errors}
        />
      </div>
      <footer className="trade-form__footer">
        <input type="hidden" name="intent" value={INTENT} />
        <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
          {busy ? "Saving…" : ROLL_TEXT.record}
        </button>
      </footer>
    </Form>
  );
}

export const meta: Route.MetaFunction = () => [{ title: `${ROLL_TEXT.title} · PutSeller` }];
