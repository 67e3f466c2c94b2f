import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import type { ActionReply } from "#app/lib/action-reply.ts";
import { useReplyToast } from "#app/hooks/use-reply-toast.ts";
import { queuedToggle } from "#app/lib/offline.ts";
import { usePendingChanges } from "#app/lib/outbox-store.ts";
import { EnhancedField } from "./enhanced-field.tsx";

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

  return (
    <fetcher.Form method="post" action={action} className="row-toggle">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <EnhancedField />
      {/* The wanted state is the button's own value: it is posted only by pressing it. */}
      <button
        type="submit"
        name={name}
        value={String(!on)}
        role="switch"
        aria-checked={on}
        aria-label={label}
        title={label}
        className={appearance === "switch" ? "row-switch" : "icon-button row-toggle-icon"}
      >
        {appearance === "switch" ? <span className="row-switch__thumb" aria-hidden="true" /> : children}
      </button>
      {caption ? (
        <span className="row-toggle__caption" aria-hidden="true">
          {caption}
        </span>
      ) : null}
    </fetcher.Form>
  );
}
