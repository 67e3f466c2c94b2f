import type { Href } from "#app/lib/href.ts";
import { useEffect, useRef } from "react";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/route";
import { BackIcon } from "#app/components/icons.tsx";
import { ErrorList } from "#app/components/forms.tsx";
import { brokerAction, loadBroker } from "./server.ts";
import { BROKER_INTENT } from "./intents.ts";

/**
 * Broker sync (docs/product.md#broker-sync): connect a Tradier account with an access token, sync
 * its history into the journal now (it is synced daily too), see the last result, remove the
 * connection. Plain forms: everything works before and without scripts.
 */
export async function loader({ context }: Route.LoaderArgs) {
  return loadBroker(context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return brokerAction(request, context);
}

export default function BrokerScreen() {
  const { connection, error, connectedOn, syncedAt, summary } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const formError = (form: string) => (actionData?.form === form ? [actionData.error] : undefined);
  // After each answer of the action the token field is emptied: a refused token is not kept in the
  // page with scripts either, as it is not without them (ADR 0075).
  const tokenField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (actionData && tokenField.current) tokenField.current.value = "";
  }, [actionData]);

  return (
    <div className="subpage">
      <header className="page-header">
        <Link to={"/profile" satisfies Href} className="icon-button" aria-label="Back to profile">
          <BackIcon />
        </Link>
        <h1>Broker sync</h1>
        <span className="page-header__spacer" aria-hidden="true" />
      </header>

      <main className="broker">
        {error ? (
          <p className="list-error" role="alert">
            {error}
          </p>
        ) : null}

        {!error && !connection ? (
          <section className="card" aria-labelledby="broker-connect">
            <h2 id="broker-connect" className="card__title">
              Connect Tradier
            </h2>
            <p className="broker__note">
              Paste an access token from your Tradier account (Settings → API Access). Your trades, assignments,
              expirations and dividends are then added to your journal, now and every day. The token is stored
              encrypted, never shown again, and deleted when you remove the connection.
            </p>
            <Form method="post" className="broker__form">
              <input type="hidden" name="intent" value={BROKER_INTENT.connect} />
              <div className="field">
                <label htmlFor="broker-token">Tradier access token</label>
                <input
                  ref={tokenField}
                  id="broker-token"
                  name="token"
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  required
                  aria-invalid={formError("connect") ? true : undefined}
                  aria-describedby={formError("connect") ? "broker-token-error" : undefined}
                />
                <ErrorList id="broker-token-error" errors={formError("connect")} />
              </div>
              <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
                Connect
              </button>
            </Form>
          </section>
        ) : null}

        {connection && !connection.account ? (
          <section className="card" aria-labelledby="broker-account">
            <h2 id="broker-account" className="card__title">
              Choose the account to sync
            </h2>
            <Form method="post" className="broker__form">
              <input type="hidden" name="intent" value={BROKER_INTENT.account} />
              <fieldset className="broker__accounts" aria-describedby="broker-account-error">
                <legend>Your token opens these Tradier accounts</legend>
                {connection.accounts.map((a, i) => (
                  <label key={a.number} className="broker__account">
                    <input type="radio" name="account" value={a.number} defaultChecked={i === 0} />
                    <span>
                      {[`••••${a.number.slice(-4)}`, a.type, a.classification.replaceAll("_", " ")]
                        .filter(Boolean)
                        .join(" · ")}
                    </span>
                  </label>
                ))}
              </fieldset>
              <ErrorList id="broker-account-error" errors={formError("account")} />
              <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
                Use this account
              </button>
            </Form>
          </section>
        ) : null}

        {connection?.account ? (
          <section className="card" aria-labelledby="broker-tradier">
            <h2 id="broker-tradier" className="card__title">
              Tradier account {connection.account}
            </h2>
            <dl className="broker__facts">
              <dt>Connected</dt>
              <dd>{connectedOn}</dd>
              <dt>Last synced</dt>
              <dd>{syncedAt ?? "Not yet"}</dd>
              {summary ? (
                <>
                  <dt>Last result</dt>
                  <dd data-testid="broker-last-result">{summary}</dd>
                </>
              ) : null}
            </dl>
            {connection.last_error ? (
              <p className="broker__error" role="alert">
                Last sync failed: {connection.last_error}
              </p>
            ) : null}
            {connection.last_result?.truncated ? (
              <p className="broker__note">
                The history was longer than one sync reads: its oldest lines were left out.
              </p>
            ) : null}
            {connection.last_result && connection.last_result.refusals.length > 0 ? (
              <details className="broker__refusals">
                <summary>Lines not added ({connection.last_result.refused})</summary>
                <ul>
                  {connection.last_result.refusals.map((r, i) => (
                    <li key={i}>
                      {r.date} · {r.what}: {r.reason}
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
            <Form method="post" className="broker__form">
              <input type="hidden" name="intent" value={BROKER_INTENT.sync} />
              <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
                Sync now
              </button>
            </Form>
            <p className="broker__note">Synced every day as well. Trades appear on your Trades screen.</p>
          </section>
        ) : null}

        {connection ? (
          <Form method="post" className="broker__remove">
            <input type="hidden" name="intent" value={BROKER_INTENT.remove} />
            <button type="submit" className="button button--danger" aria-disabled={busy || undefined}>
              Remove Tradier connection
            </button>
          </Form>
        ) : null}
      </main>
    </div>
  );
}
