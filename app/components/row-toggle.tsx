import type { MouseEvent, ReactNode } from "react";
import { useFetcher } from "react-router";
import { ENHANCED_FIELD, type ActionReply } from "#app/lib/action-reply.ts";
import { useReplyToast } from "#app/hooks/use-reply-toast.ts";
import { queuedToggle } from "#app/offline/index.ts";
import { usePendingChanges } from "#app/offline/ui.tsx";

/** The ids of the list's two switch forms: the one that switches a row on, and the one that switches it off. */
const SWITCH_FORM = { on: "row-switch-on", off: "row-switch-off" } as const;
/** The posted field holding the wanted state, "true" or "false" (read by setFlag, app/server/list-actions.server.ts). */
const STATE_FIELD = "value";

/**
 * The two forms every row's switch posts without JavaScript, written once by the list (ADR 0060).
 * Each holds the intent and the wanted state; a row's button joins one by its `form` attribute and
 * adds the row's id. A list writes them once instead of each row writing its own form.
 */
export function RowToggleForms({ action, intent }: { action: string; intent: string }) {
  return (
    <>
      {(["on", "off"] as const).map((state) => (
        <form key={state} id={SWITCH_FORM[state]} method="post" action={action} hidden>
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name={STATE_FIELD} value={String(state === "on")} />
        </form>
      ))}
    </>
  );
}

/**
 * An on/off control of one row (the watchlist's recommendation switch, the UIP bell). Without
 * JavaScript it submits one of the list's switch forms (RowToggleForms) and the page comes back;
 * with it, it posts in place, shows the new state at once and the action's toast, and the list
 * reloads its data behind it.
 */
export function RowToggle({
  action,
  intent,
  row,
  checked,
  label,
  appearance = "switch",
  caption,
  children,
}: {
  /** The route whose action handles `intent` (the same as the list's RowToggleForms). */
  action: string;
  intent: string;
  /** The row it switches; the ticker names the change in the outbox when it waits for the network. */
  row: { id: number; ticker: string };
  checked: boolean;
  /** The accessible name, e.g. "Recommendations for AAPL". */
  label: string;
  appearance?: "switch" | "icon";
  /** A word shown under the control, e.g. "Recs" (the accessible name stays `label`). */
  caption?: string;
  /** The icon of an `icon` toggle (e.g. a bell). */
  children?: ReactNode;
}) {
  const fetcher = useFetcher<ActionReply>();
  useReplyToast(fetcher.data);
  const pending = fetcher.formData?.get(STATE_FIELD);
  // Switched while offline: shown as switched until the outbox has sent it (app/offline/protocol.ts).
  const queued = queuedToggle(usePendingChanges(), {
    page: action.split("?")[0]!,
    intent,
    id: String(row.id),
    name: STATE_FIELD,
  });
  const on = typeof pending === "string" ? pending === "true" : (queued ?? checked);

  // Posted by the fetcher: the fields of the list's form the button joins and the button's own (as
  // without JavaScript), the ticker that names a change waiting in the outbox, and the mark of a
  // post sent by JavaScript, so the action answers JSON.
  function onClick(event: MouseEvent<HTMLButtonElement>) {
    const button = event.currentTarget;
    if (!button.form) return;
    event.preventDefault();
    const data = new FormData(button.form);
    data.set(button.name, button.value);
    data.set("ticker", row.ticker);
    data.set(ENHANCED_FIELD, "1");
    void fetcher.submit(data, { method: "post", action });
  }

  return (
    <span className="row-toggle">
      {/* A submit button by default; no title beside the caption (ADR 0059: every row carries it). */}
      <button
        form={on ? SWITCH_FORM.off : SWITCH_FORM.on}
        name="id"
        value={row.id}
        role="switch"
        aria-checked={on}
        aria-label={label}
        className={appearance === "switch" ? "row-switch" : "icon-button row-toggle-icon"}
        onClick={onClick}
      >
        {appearance === "switch" ? null : children}
      </button>
      {caption ? (
        <span className="caption" aria-hidden="true">
          {caption}
        </span>
      ) : null}
    </span>
  );
}
