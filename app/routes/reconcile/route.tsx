import type { Href } from "#app/lib/href.ts";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { SOURCE_NAMES } from "#contract/broker-names.ts";
import type { Difference, Reconciliation } from "#contract/reconcile.ts";
import { formatDateTime } from "#app/lib/format.ts";
import type { Route } from "./+types/route";
import { FIX_FIELD, RECONCILE_INTENT, RECONCILE_PARAM } from "./intents.ts";
import { loadReconcile, reconcileAction } from "./server.ts";
import { cashText, differenceText, fixText, holdingText, positionName, TOTAL_ROWS } from "./components/describe.ts";

/**
 * Reconcile (docs/product.md#screens-reconcile, ADR 0094): the journal beside a broker's positions,
 * each difference with its one-tap fix. Server rendered; every fix is a plain form.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return loadReconcile(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return reconcileAction(request, context);
}

type FixError = { key: string | null; action: string | null; error: string; typed: string };

export default function ReconcileScreen() {
  const book = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const failed: FixError | null = actionData?.fix ?? null;
  const { snapshot } = book;

  return (
    <>
      <header className="page-header">
        <div className="page-header__title">
          <h1>Reconcile</h1>
        </div>
        <Link to={"/portfolio" satisfies Href} className="plan-back">
          Trades
        </Link>
      </header>
      {failed && failed.key === null ? (
        <p className="error-list" role="alert">
          {failed.error}
        </p>
      ) : null}
      {!snapshot ? (
        <section className="card reconcile">
          <p>No broker has told us your positions yet.</p>
          <p>
            <Link to={"/import-trades" satisfies Href}>Import a file</Link> that lists your open positions (Interactive
            Brokers' activity statement or Flex Query with its Open Positions section, an OFX/QFX investment statement,
            or tastytrade's or Schwab's positions export), or <Link to={"/broker" satisfies Href}>connect Tradier</Link>
            : its positions and cash arrive with every sync.
          </p>
        </section>
      ) : (
        <Compared book={book} snapshot={snapshot} failed={failed} />
      )}
    </>
  );
}

function Compared({
  book,
  snapshot,
  failed,
}: {
  book: Reconciliation;
  snapshot: NonNullable<Reconciliation["snapshot"]>;
  failed: FixError | null;
}) {
  const broker = SOURCE_NAMES[snapshot.source];
  const asOf = `${formatDateTime(snapshot.as_of)} UTC`;
  const differing = new Set(book.differences.map((d) => d.key));
  return (
    <div className="reconcile">
      <p className="reconcile__source">
        Your journal beside {broker}'s positions as of {asOf}.
      </p>
      {book.sources.length > 1 ? (
        <nav aria-label="Compare with" className="reconcile__sources">
          {book.sources.map((s) => (
            <Link
              key={s.source}
              to={`?${RECONCILE_PARAM.source}=${s.source}`}
              aria-current={s.source === snapshot.source ? "page" : undefined}
            >
              {SOURCE_NAMES[s.source]}
            </Link>
          ))}
        </nav>
      ) : null}

      <section className="card" aria-labelledby="reconcile-differences">
        <h2 id="reconcile-differences" className="card__title">
          Differences
        </h2>
        {book.differences.length === 0 ? (
          <p role="status">
            Your journal matches {broker} as of {asOf}.
          </p>
        ) : (
          <ul aria-label="Differences" className="reconcile__differences">
            {book.differences.map((d) => (
              <li key={`${d.key}-${d.issue}`}>
                <p>{differenceText(d, broker)}</p>
                {d.fix ? (
                  <FixForm
                    difference={d}
                    snapshot={snapshot}
                    failed={failed?.key === d.key && failed.action === d.fix.action ? failed : null}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <CashCheck book={book} broker={broker} asOf={asOf} />

      <section className="card" aria-labelledby="reconcile-books">
        <h2 id="reconcile-books" className="card__title">
          Both books
        </h2>
        <table className="plan-table reconcile__table">
          <caption>Your journal beside {broker}</caption>
          <thead>
            <tr>
              <th scope="col">Position</th>
              <th scope="col">Journal</th>
              <th scope="col">{broker}</th>
            </tr>
          </thead>
          <tbody>
            {book.positions.map((p) => (
              <tr key={p.key}>
                <th scope="row">
                  {positionName(p)}
                  {differing.has(p.key) ? <span className="plan-tag plan-tag--over"> differs</span> : null}
                </th>
                <td>{holdingText(p, p.journal)}</td>
                <td>{holdingText(p, p.broker)}</td>
              </tr>
            ))}
            {TOTAL_ROWS.map((row) => (
              <tr key={row.label} className="reconcile__total">
                <th scope="row">{row.label}</th>
                <td>{row.value(book.totals.journal)}</td>
                <td>{row.value(book.totals.broker)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** The journal's cash-secured puts against the broker's cash at the snapshot (ADR 0098). */
function CashCheck({ book, broker, asOf }: { book: Reconciliation; broker: string; asOf: string }) {
  const { covered, text } = cashText(book.cash, broker);
  return (
    <section className="card" aria-labelledby="reconcile-cash">
      <h2 id="reconcile-cash" className="card__title">
        Cash for your puts
      </h2>
      <p className="reconcile__cash" data-covered={covered === null ? undefined : String(covered)}>
        {covered === false ? <strong className="plan-tag plan-tag--over">Not covered: </strong> : null}
        {text}
      </p>
      <p className="reconcile__note">
        Committed is the collateral of your journal's open cash-secured puts (strike × 100 × contracts) as of {asOf};
        the cash is what {broker} stated in the same snapshot.
      </p>
    </section>
  );
}

/** One difference's fix: a button, and a price field when the broker does not give the price. */
function FixForm({
  difference: d,
  snapshot,
  failed,
}: {
  difference: Difference;
  snapshot: NonNullable<Reconciliation["snapshot"]>;
  failed: FixError | null;
}) {
  const fix = d.fix!;
  const asksPrice = fix.price === null;
  const id = `fix-${d.key.replace(/[^A-Za-z0-9]/g, "-")}-${fix.action}`;
  return (
    <Form method="post" className="plan-sector-form reconcile__fix" preventScrollReset>
      <input type="hidden" name={FIX_FIELD.source} value={snapshot.source} />
      <input type="hidden" name={FIX_FIELD.asOf} value={snapshot.as_of} />
      <input type="hidden" name={FIX_FIELD.key} value={d.key} />
      <input type="hidden" name={FIX_FIELD.action} value={fix.action} />
      <input type="hidden" name={FIX_FIELD.quantity} value={fix.quantity} />
      {asksPrice ? (
        <label>
          <span>Price a share for {positionName(d)}</span>
          <input
            name={FIX_FIELD.price}
            inputMode="decimal"
            required
            defaultValue={failed?.typed ?? ""}
            aria-invalid={failed ? true : undefined}
            aria-describedby={failed ? `${id}-error` : undefined}
          />
        </label>
      ) : null}
      <button type="submit" name="intent" value={RECONCILE_INTENT.fix} className="button button--small">
        {fixText(d)}
      </button>
      {failed ? (
        <p id={`${id}-error`} className="error-list" role="alert">
          {failed.error}
        </p>
      ) : null}
    </Form>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Reconcile · PutSeller" }];
