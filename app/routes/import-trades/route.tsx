import type { Href } from "#app/lib/href.ts";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/route";
import { IMPORT_BROKERS } from "#app/lib/trade-fields.ts";
import { requireUser } from "#app/server/auth.server.ts";
import { importAction } from "./server.ts";
import { ErrorList } from "#app/components/forms.tsx";
import { BackIcon } from "#app/components/icons.tsx";
import type { TradeIntent } from "#app/lib/trade-intents.ts";

/** Import a broker's CSV: first a preview (what is added, what is refused and why), then the import itself. */
export function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export function action({ request, context }: Route.ActionArgs) {
  return importAction(request, context);
}

const PREVIEW: TradeIntent = "preview-import";
const IMPORT: TradeIntent = "import";

export default function ImportTrades({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const preview = actionData?.preview ?? null;
  const errors = actionData?.errors ?? {};

  return (
    <div className="subpage">
      <header className="page-header">
        <Link to={"/portfolio" satisfies Href} className="icon-button" aria-label="Back to trades">
          <BackIcon />
        </Link>
        <h1>Import trades</h1>
        <span className="page-header__spacer" aria-hidden="true" />
      </header>

      <main className="import-trades">
        <Form method="post" encType="multipart/form-data" className="import-form">
          <input type="hidden" name="intent" value={PREVIEW} />
          <div className="field">
            <label htmlFor="import-broker">Broker</label>
            <select
              id="import-broker"
              name="broker"
              defaultValue={actionData?.broker ?? "ibkr"}
              aria-describedby={errors.broker ? "import-broker-error" : undefined}
            >
              {IMPORT_BROKERS.map((b) => (
                <option key={b.value} value={b.value}>
                  {b.label}
                </option>
              ))}
            </select>
            <ErrorList id="import-broker-error" errors={errors.broker} />
          </div>
          <div className="field">
            <label htmlFor="import-file">CSV, OFX or QFX file (under 1 MB)</label>
            <input
              id="import-file"
              name="file"
              type="file"
              accept=".csv,text/csv,.ofx,.qfx,application/x-ofx"
              aria-invalid={errors.file ? true : undefined}
              aria-describedby={errors.file ? "import-file-error" : undefined}
            />
            <ErrorList id="import-file-error" errors={errors.file} />
          </div>
          <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
            Preview
          </button>
        </Form>

        <p className="import-trades__broker-sync">
          With Tradier, <Link to={"/broker" satisfies Href}>sync your account instead</Link>: no files, every day.
        </p>

        {preview ? (
          <section aria-labelledby="import-preview" className="journal-section">
            <h2 id="import-preview">Preview</h2>
            <p role="status">
              {preview.added.length} to add · {preview.duplicates.length} already imported · {preview.refused.length}{" "}
              refused · {preview.skipped} lines not trades
            </p>
            {preview.openings.length > 0 ? (
              <>
                <h3>Opening positions</h3>
                <p>
                  The file starts mid-cycle: these were open before its first line. Enter each one's price to bring it
                  in with the lines that need it.
                </p>
                <Form method="post" encType="multipart/form-data" className="import-form">
                  <input type="hidden" name="intent" value={PREVIEW} />
                  <input type="hidden" name="broker" value={actionData?.broker} />
                  <input type="hidden" name="csv" value={actionData?.csv} />
                  {preview.openings.map((o, i) => {
                    const name = `opening:${o.key}`;
                    const fieldErrors = errors[name];
                    return (
                      <div className="field" key={o.key}>
                        <label htmlFor={`opening-${i}`}>
                          {o.kind === "stock_buy"
                            ? `${o.quantity} ${o.ticker} shares: cost a share ($)`
                            : `${o.quantity} short ${o.ticker} ${o.strike} ${o.option_type} ${o.expiry}: premium a share ($)`}
                        </label>
                        <input
                          id={`opening-${i}`}
                          name={name}
                          inputMode="decimal"
                          defaultValue={actionData?.openings?.[o.key] ?? (o.price === null ? "" : String(o.price))}
                          aria-invalid={fieldErrors ? true : undefined}
                          aria-describedby={fieldErrors ? `opening-${i}-error` : undefined}
                        />
                        <ErrorList id={`opening-${i}-error`} errors={fieldErrors} />
                      </div>
                    );
                  })}
                  <button type="submit" className="button" aria-disabled={busy || undefined}>
                    Preview with these prices
                  </button>
                </Form>
              </>
            ) : null}
            {preview.added.length > 0 ? (
              <>
                <h3>Will be added</h3>
                <ul aria-label="Will be added" className="import-lines">
                  {preview.added.map((t) => (
                    <li key={`${t.line}-${t.kind}-${t.ticker}-${t.strike ?? ""}-${t.expiry ?? ""}`}>
                      {t.line === 0 ? lineZeroLabel(t.notes) : `Line ${t.line}`}: {t.kind.replaceAll("_", " ")}{" "}
                      {t.quantity} {t.ticker}
                      {t.option_type ? ` ${t.strike} ${t.option_type} ${t.expiry}` : ""} @ {t.price}, fees {t.fees},{" "}
                      {t.traded_at.slice(0, 16).replace("T", " ")} UTC
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {preview.refused.length > 0 ? (
              <>
                <h3>Refused</h3>
                <ul aria-label="Refused lines" className="import-lines">
                  {preview.refused.map((r, i) => (
                    <li key={`${r.line}-${i}`}>
                      Line {r.line}: {r.reason}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {preview.duplicates.length > 0 ? <p>Already imported: {alreadyImported(preview.duplicates)}.</p> : null}
            {preview.positions ? (
              <p>
                The file lists {preview.positions.count} open {preview.positions.count === 1 ? "position" : "positions"}{" "}
                as of {preview.positions.as_of.slice(0, 16).replace("T", " ")} UTC
                {preview.positions.cash === null
                  ? ""
                  : `, and ${preview.positions.cash.toLocaleString("en-US", { style: "currency", currency: "USD" })} cash`}
                : importing saves them, to compare with your journal on{" "}
                <Link to={"/reconcile" satisfies Href}>Reconcile</Link>.
              </p>
            ) : null}
            {preview.added.length > 0 || preview.positions ? (
              <Form method="post" encType="multipart/form-data">
                <input type="hidden" name="intent" value={IMPORT} />
                <input type="hidden" name="broker" value={actionData?.broker} />
                <input type="hidden" name="csv" value={actionData?.csv} />
                {preview.openings.map((o) =>
                  o.price === null ? null : (
                    <input key={o.key} type="hidden" name={`opening:${o.key}`} value={String(o.price)} />
                  ),
                )}
                <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
                  {preview.added.length === 0
                    ? "Save the open positions"
                    : `Import ${preview.added.length} ${preview.added.length === 1 ? "trade" : "trades"}`}
                </button>
              </Form>
            ) : (
              <p>Nothing to import.</p>
            )}
          </section>
        ) : null}
      </main>
    </div>
  );
}

/**
 * What a line the file does not have says it is, from its note: an opening position (ADR 0074) or an
 * expiry recorded from the close (docs/decisions/0095-webull-orders-and-expiries-from-the-close.md).
 */
function lineZeroLabel(notes: string | null | undefined): string {
  return notes?.startsWith("Recorded from the close") ? notes.split(":")[0]! : "Opening position";
}

/** "lines 2, 4 and 3 expiries recorded from the close": the file's lines, and the entries it has no line for (ADR 0095). */
function alreadyImported(duplicates: readonly { line: number }[]): string {
  const lines = duplicates.filter((d) => d.line > 0).map((d) => d.line);
  const others = duplicates.length - lines.length;
  const parts = lines.length > 0 ? [`lines ${lines.join(", ")}`] : [];
  if (others > 0) parts.push(`${others} ${others === 1 ? "expiry" : "expiries"} recorded from the close`);
  return parts.join(" and ");
}

export const meta: Route.MetaFunction = () => [{ title: "Import trades · PutSeller" }];
