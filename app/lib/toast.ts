/**
 * Showing a toast from the browser. The toast library and its container load with the page's
 * first toast (app/components/toast-container-root.tsx says why), not with the page; the service
 * worker keeps their chunk, so on a phone that has opened the app before the first toast waits
 * for no network. A toast asked for before the container has mounted is shown once it has (the
 * library keeps toasts until then).
 */
import type { ToastOptions } from "react-toastify";

const library = () => import("#app/components/toast-container-root.tsx");

function show(text: string, options?: ToastOptions): void {
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
