import { useEffect, useEffectEvent, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { Link, useNavigate } from "react-router";
import { CloseIcon } from "./icons.tsx";

/**
 * A modal reached by URL (e.g. `?form=stocks`), so it opens and closes without JavaScript:
 * the server renders an open <dialog> and the close button is a link to `closeTo`.
 * With JavaScript it becomes a true modal: the page behind is inert, focus stays inside
 * (Tab wraps), Escape closes it, and focus returns to the opener.
 */
export function Modal({
  title,
  closeTo,
  onClose,
  returnFocusRef,
  className,
  children,
}: {
  title: ReactNode;
  /** Where closing leads; also the close link's href for browsers without JavaScript. */
  closeTo: string;
  /** Closes the modal instead of following `closeTo` (e.g. going back in history). */
  onClose?: () => void;
  /** Focused after closing; the element that opened the modal. */
  returnFocusRef?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const navigate = useNavigate();

  function close() {
    if (onClose) onClose();
    else void navigate(closeTo, { replace: true, preventScrollReset: true });
  }
  const closeOnEscape = useEffectEvent(close);
  const restoreFocus = useEffectEvent(() => returnFocusRef?.current?.focus());

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    // The server's open dialog is non-modal; reopen it as a modal (inert page, Escape, top layer).
    if (!dialog.matches(":modal")) {
      if (dialog.open) dialog.close();
      dialog.showModal();
    }
    focusables(dialog)[0]?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault();
      closeOnEscape();
    };
    dialog.addEventListener("cancel", onCancel);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      restoreFocus();
    };
  }, []);

  /** Keeps Tab and Shift+Tab inside the dialog rather than letting focus leave for the browser's chrome. */
  function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab" || !dialogRef.current) return;
    const items = focusables(dialogRef.current);
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialogRef.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={dialogRef}
      open
      className={["modal", className].filter(Boolean).join(" ")}
      aria-labelledby={titleId}
      onKeyDown={trapTab}
    >
      <div className="modal__panel">
        <header className="modal__header">
          <h2 id={titleId}>{title}</h2>
          <Link
            to={closeTo}
            replace
            preventScrollReset
            className="icon-button"
            aria-label="Close"
            onClick={(event) => {
              event.preventDefault();
              close();
            }}
          >
            <CloseIcon />
          </Link>
        </header>
        {children}
      </div>
    </dialog>
  );
}

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  'input:not([disabled]):not([type="hidden"])',
  "select:not([disabled])",
  "textarea:not([disabled])",
  '[tabindex]:not([tabindex="-1"])',
].join(",");

/** Elements Tab can reach, in order: shown, not taken out of the tab order, one radio per group. */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => {
    if (element.tabIndex < 0 || element.getClientRects().length === 0) return false;
    if (element instanceof HTMLInputElement && element.type === "radio" && !element.checked) {
      const group = element.form?.elements.namedItem(element.name);
      const checked = group instanceof RadioNodeList && group.value !== "";
      return !checked;
    }
    return true;
  });
}
