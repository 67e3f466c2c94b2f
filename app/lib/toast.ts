/**
 * Showing a toast from the browser. The toast library loads after the page is interactive
 * (app/components/toaster.tsx mounts its container then), not with the page's first-load
 * JavaScript; a toast asked for before it is there is shown as soon as it is (the library keeps
 * toasts until its container mounts).
 */
import type { ToastOptions } from "react-toastify";

const library = () => import("react-toastify");

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
