import { useEffect, useRef, type ReactNode } from "react";
import { Link, useFetcher, useLocation, useNavigate } from "react-router";
import type { ActionReply } from "#app/lib/action-reply.ts";
import { useReplyToast } from "#app/hooks/use-reply-toast.ts";
import { EnhancedField } from "./enhanced-field.tsx";
import { Modal } from "./modal.tsx";

/** Navigation state of a dialog opened from the page it sits on (so closing goes back in history). */
export const OPENED_HERE = { openedHere: true } as const;

export function openedHere(state: unknown): boolean {
  return typeof state === "object" && state !== null && (state as { openedHere?: unknown }).openedHere === true;
}

/**
 * A confirmation step reached by URL (e.g. `?delete=AAPL`), so it works without JavaScript: the
 * confirm button posts a form to `action`. With JavaScript it posts in place, shows the reply's
 * toast and leaves for `doneTo` (or closes). An accessible modal: focus trap, Escape closes.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  tone = "danger",
  action,
  fields,
  closeTo,
  doneTo,
}: {
  title: ReactNode;
  children: ReactNode;
  /** The confirm button's text; null shows only a close button (nothing to confirm). */
  confirmLabel: string | null;
  tone?: "danger" | "primary";
  /** The route whose action does it, with the form's search if any. */
  action: string;
  /** Hidden fields, `intent` included. */
  fields: Record<string, string | number>;
  /** Where Cancel, Escape and the close button lead. */
  closeTo: string;
  /** Where to go after it was done; `closeTo` when omitted. */
  doneTo?: string;
}) {
  const fetcher = useFetcher<ActionReply>();
  const navigate = useNavigate();
  const location = useLocation();
  const fromHere = openedHere(location.state);
  useReplyToast(fetcher.data);

  const close = () => {
    if (fromHere) void navigate(-1);
    else void navigate(closeTo, { replace: true, preventScrollReset: true });
  };

  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    if (fetcher.data.ok && doneTo && doneTo !== closeTo) void navigate(doneTo, { replace: true });
    else close();
  });

  const busy = fetcher.state !== "idle";
  return (
    <Modal title={title} closeTo={closeTo} onClose={close} className="modal--confirm">
      <div className="confirm">
        <div className="confirm__body">{children}</div>
        <fetcher.Form method="post" action={action} className="confirm__actions">
          {Object.entries(fields).map(([key, value]) => (
            <input key={key} type="hidden" name={key} value={value} />
          ))}
          <EnhancedField />
          <Link
            to={closeTo}
            replace
            preventScrollReset
            className="button"
            onClick={(event) => {
              event.preventDefault();
              close();
            }}
          >
            {confirmLabel ? "Cancel" : "Close"}
          </Link>
          {confirmLabel ? (
            <button type="submit" className={`button button--${tone}`} disabled={busy}>
              {confirmLabel}
            </button>
          ) : null}
        </fetcher.Form>
      </div>
    </Modal>
  );
}
