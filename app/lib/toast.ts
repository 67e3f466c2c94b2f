/**
 * Showing a toast from the browser. The toast library loads with the page's first toast
 * (app/components/toaster.tsx mounts its container then), not with the page: importing it adds
 * its stylesheet, and a stylesheet added after the first paint restyles the whole document (about
 * 1,000 elements of a 50-row list, 90–170 ms at 4× CPU slowdown; ADR 0056). A toast asked for
 * before the container is there is shown as soon as it is (the library keeps toasts until its
 * container mounts). The service worker keeps the library's chunk, so on a phone that has opened
 * the app before, the first toast waits for no network.
 */
import type { ToastOptions } from "react-toastify";

const library = () => import("react-toastify");

/** Whether this page has asked for a toast yet, for the container (useSyncExternalStore). */
let asked = false;
const askedListeners = new Set<() => void>();
export const toastAsked = (): boolean => asked;
export function onToastAsked(listener: () => void): () => void {
  askedListeners.add(listener);
  return () => askedListeners.delete(listener);
}

function show(text: string, options?: ToastOptions): void {
  if (!asked) {
    asked = true;
    for (const listener of [...askedListeners]) listener();
  }
  library().then(
    ({ toast: libraryToast }) => libraryToast(text, options),
    (error: unknown) => console.warn(`[toast] could not load the toast library; not shown: ${text}`, error),
  );
}

/** Same calls as react-toastify's `toast` (the ones the app uses). */
export const toast = Object.assign(show, {
  success: (text: string, options?: ToastOptions) => show(text, { ...options, type: "success" }),
  info: (text: string, options?: ToastOptions) => show(text, { ...options, type: "info" }),
  warning: (text: string, options?: ToastOptions) => show(text, { ...options, type: "warning" }),
  error: (text: string, options?: ToastOptions) => show(text, { ...options, type: "error" }),
});
