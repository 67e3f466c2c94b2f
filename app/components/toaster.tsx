import { useEffect, useSyncExternalStore } from "react";
import { staticToastClass, toast as showToast } from "#app/lib/toast.ts";

interface ToastMessage {
  id: string;
  type: "success" | "error" | "info" | "warning";
  text: string;
  autoClose: number;
  clearStorage: boolean;
}

/**
 * The flash message a response carries (docs/product.md#screens-app-wide). Until JavaScript runs
 * (or when it never does: turned off, or failed to load on a flaky network) it is rendered as
 * plain HTML; once the page is hydrated the toast library (loaded with the first toast,
 * app/lib/toast.ts) shows it instead. (<noscript> would miss the failed-to-load case.)
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  useEffect(() => {
    if (!toast) return;
    // Sign-out and expired sessions clear the browser's storage (docs/product.md#screens-routing).
    if (toast.clearStorage) window.localStorage.clear();
    // A screen read back offline from a saved copy holds the toast it came with: shown once only.
    // (Not recorded for sign-out, whose storage must stay empty; /login is never a saved screen.)
    if (!toast.clearStorage && seenBefore(toast.id)) return;
    showToast(toast.text, { type: toast.type, autoClose: toast.autoClose, toastId: toast.id });
    // docs/product.md#screens-login: a message shown after navigation scrolls the page to the top.
    window.scrollTo({ top: 0 });
  }, [toast]);

  // Without JavaScript it fades out after its time by CSS alone, and never blocks a tap.
  return toast && !hydrated ? (
    <div className={staticToastClass(toast.type)} role="status" style={{ animationDelay: `${toast.autoClose}ms` }}>
      {toast.text}
    </div>
  ) : null;
}

const noSubscription = () => () => {};

const SHOWN_KEY = "shownToasts";

/** Whether a flash toast was shown here before; remembers it (the last 30). */
function seenBefore(id: string): boolean {
  try {
    const shown = JSON.parse(window.localStorage.getItem(SHOWN_KEY) ?? "[]") as unknown;
    const ids = Array.isArray(shown) ? shown.filter((x): x is string => typeof x === "string") : [];
    if (ids.includes(id)) return true;
    window.localStorage.setItem(SHOWN_KEY, JSON.stringify([...ids, id].slice(-30)));
  } catch {
    // No storage: show it.
  }
  return false;
}
