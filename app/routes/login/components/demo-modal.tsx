import { useEffect, useId, useRef, type KeyboardEvent, type RefObject } from "react";
import { CloseIcon, PlayIcon } from "#app/components/signed-out-icons.tsx";
import { useHydrated } from "#app/hooks/use-hydrated.ts";

/**
 * 'Watch Demo' (docs/product.md#screens-login): a placeholder modal. With JavaScript it is a true modal dialog:
 * the page behind is inert, Tab stays inside, Escape and the close button close it, and focus
 * returns to the button that opened it. Without JavaScript the 'Watch Demo' link renders it
 * open (`?demo`) and its close button is a link back.
 */
export function DemoModal({
  open,
  closeHref,
  onClose,
  returnFocusRef,
}: {
  open: boolean;
  closeHref: string;
  onClose: () => void;
  /** Focused again when the modal closes: the button that opened it. */
  returnFocusRef: RefObject<HTMLElement | null>;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const hydrated = useHydrated();
  const wasOpen = useRef(false);

  useEffect(() => {
    const dialog = ref.current;
    // Until hydration the server's markup rules (an open, non-modal dialog for `?demo`).
    if (!dialog || !hydrated) return;
    if (open && !dialog.matches(":modal")) {
      // Reopen the server's dialog as a true modal (inert page, top layer, Escape).
      if (dialog.open) dialog.close();
      dialog.showModal();
      dialog.querySelector<HTMLElement>(".demo-modal__close")?.focus();
      wasOpen.current = true;
    } else if (!open) {
      if (dialog.open) dialog.close();
      if (wasOpen.current) returnFocusRef.current?.focus();
      wasOpen.current = false;
    }
  }, [open, hydrated, returnFocusRef]);

  /** Tab and Shift+Tab cycle inside the dialog instead of leaving for the browser's chrome. */
  function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab" || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>("a[href], button:not([disabled])")];
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={ref}
      className="demo-modal"
      aria-labelledby={titleId}
      // Without JavaScript the server opens it; with JavaScript only showModal()/close() do.
      open={!hydrated && open ? true : undefined}
      onKeyDown={trapTab}
      onClose={() => {
        // Escape closes the dialog natively; tell the page so its state agrees. (A close event
        // left over from reopening the server's dialog as a modal finds it open again: ignored.)
        if (open && !ref.current?.open) onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside the panel) closes it.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="demo-modal__panel">
        <header className="demo-modal__header">
          <h2 id={titleId}>PutSeller in two minutes</h2>
          {hydrated ? (
            <button type="button" className="icon-button demo-modal__close" aria-label="Close" onClick={onClose}>
              <CloseIcon />
            </button>
          ) : (
            <a href={closeHref} className="icon-button demo-modal__close" aria-label="Close">
              <CloseIcon />
            </a>
          )}
        </header>
        <div className="demo-modal__video">
          <PlayIcon width={56} height={56} />
          <p>Demo video would be embedded here</p>
        </div>
      </div>
    </dialog>
  );
}
