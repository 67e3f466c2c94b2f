import { toast } from "#app/lib/toast.ts";
import { TOAST_MS } from "#app/lib/messages.ts";
import { ChevronRightIcon } from "#app/components/icons.tsx";
import { comingSoonText } from "#app/routes/profile/coming-soon.ts";
import { PROFILE_INTENT } from "#app/routes/profile/intents.ts";

/** The cards of /profile (docs/product.md#screens-profile): a titled section, a list of facts, buttons not built yet. */
export function Card({
  title,
  badge,
  id,
  children,
}: {
  title: string;
  badge?: string;
  id?: string;
  children: React.ReactNode;
}) {
  const headingId = `card-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section className="card" aria-labelledby={headingId} id={id}>
      <h2 id={headingId} className="card__title">
        {title}
        {badge ? <span className="badge">{badge}</span> : null}
      </h2>
      {children}
    </section>
  );
}

export function Facts({ rows }: { rows: ReadonlyArray<readonly [string, string]> }) {
  return (
    <dl className="facts">
      {rows.map(([term, value]) => (
        <div key={term} className="facts__row">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * docs/product.md#screens-profile: buttons whose actions are not part of the product yet. Each is a
 * plain form's button, so a tap before the scripts run (or without them) is answered by the action
 * with the same words as a flash toast (issue 46); once they run, the toast shows in place.
 */
export function ActionList({ labels }: { labels: readonly string[] }) {
  return (
    <form method="post">
      <input type="hidden" name="intent" value={PROFILE_INTENT.comingSoon} />
      <ul className="action-list">
        {labels.map((label) => (
          <li key={label}>
            <button
              name="feature"
              value={label}
              className="action-list__item"
              onClick={(event) => {
                event.preventDefault();
                toast.info(comingSoonText(label), { autoClose: TOAST_MS.app, toastId: label });
              }}
            >
              <span>{label}</span>
              <ChevronRightIcon aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
    </form>
  );
}
