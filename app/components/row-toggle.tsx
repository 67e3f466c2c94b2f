import type { FormEvent, ReactNode } from "react";
import { useFetcher } from "react-router";
import { ENHANCED_FIELD, type ActionReply } from "#app/lib/action-reply.ts";
import { escapeHtml } from "#app/lib/html.ts";
import { useReplyToast } from "#app/hooks/use-reply-toast.ts";
import { queuedToggle } from "#app/lib/offline.ts";
import { usePendingChanges } from "#app/lib/outbox-store.ts";

/**
 * An on/off control of one row (the watchlist's recommendation switch, the UIP bell). It is a
 * form: without JavaScript it posts and the page comes back; with it, it posts in place, shows
 * the new state at once and the action's toast, and the list reloads its data behind it.
 */
export function RowToggle({
  action,
  intent,
  fields,
  checked,
  label,
  name = "value",
  appearance = "switch",
  caption,
  children,
}: {
  /** The route whose action handles `intent`. */
  action: string;
  intent: string;
  /** Hidden fields naming the row, e.g. `{ id: 12 }`. */
  fields: Record<string, string | number>;
  checked: boolean;
  /** The accessible name, e.g. "Recommendations for AAPL". */
  label: string;
  /** The posted field holding the wanted state, "true" or "false". */
  name?: string;
  appearance?: "switch" | "icon";
  /** A word shown under the control, e.g. "Recs" (the accessible name stays `label`). */
  caption?: string;
  /** The icon of an `icon` toggle (e.g. a bell). */
  children?: ReactNode;
}) {
  const fetcher = useFetcher<ActionReply>();
  useReplyToast(fetcher.data);
  const pending = fetcher.formData?.get(name);
  // Switched while offline: shown as switched until the outbox has sent it (lib/offline.ts).
  const queued = queuedToggle(usePendingChanges(), {
    page: action.split("?")[0]!,
    intent,
    id: String(fields.id ?? ""),
    name,
  });
  const on = typeof pending === "string" ? pending === "true" : (queued ?? checked);

  // Posted by the fetcher, marked as sent by JavaScript so the action answers JSON (the field is
  // added here, not as an input each row would insert once hydrated).
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const button = event.currentTarget.querySelector("button");
    if (button) data.set(button.name, button.value);
    data.set(ENHANCED_FIELD, "1");
    void fetcher.submit(data, { method: "post", action });
  }

  return (
    <form method="post" action={action} className="row-toggle" onSubmit={onSubmit}>
      {/* The row's fixed fields as markup React leaves alone: hydrating a list's hidden inputs
          set each one's value again and restyled the page (ADR 0056). */}
      <span hidden dangerouslySetInnerHTML={{ __html: hiddenFields({ intent, ...fields }) }} />
      {/* The wanted state is the button's own value: it is posted only by pressing it. */}
      {/* A submit button by default; no title beside the caption (ADR 0059: every row carries it). */}
      <button
        name={name}
        value={String(!on)}
        role="switch"
        aria-checked={on}
        aria-label={label}
        className={appearance === "switch" ? "row-switch" : "icon-button row-toggle-icon"}
      >
        {appearance === "switch" ? null : children}
      </button>
      {caption ? (
        <span className="caption" aria-hidden="true">
          {caption}
        </span>
      ) : null}
    </form>
  );
}

function hiddenFields(fields: Record<string, string | number>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(String(value))}">`)
    .join("");
}
