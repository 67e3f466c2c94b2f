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
    (error: unknown) => {
      console.warn("[toast] could not load the toast library; shown as plain text", error);
      showPlain(text, options);
    },
  );
}

/** The plain toast box's classes (app/styles/app.css), for the Toaster's and this module's. */
export const staticToastClass = (type: string) => `static-toast static-toast--${type}`;

/**
 * A toast whose library could not load (a flaky network before the service worker kept it): the
 * same plain box a page shows before its scripts run (components/toaster.tsx), fading by CSS after
 * its time. A trader still learns whether the action worked.
 */
function showPlain(text: string, options?: ToastOptions): void {
  const box = document.createElement("div");
  box.className = staticToastClass(options?.type ?? "info");
  box.setAttribute("role", "status");
  if (typeof options?.autoClose === "number") box.style.animationDelay = `${options.autoClose}ms`;
  box.textContent = text;
  box.addEventListener("animationend", () => box.remove());
  document.body.append(box);
}

/** Same calls as react-toastify's `toast` (the ones the app uses). */
export const toast = Object.assign(show, {
  success: (text: string, options?: ToastOptions) => show(text, { ...options, type: "success" }),
  info: (text: string, options?: ToastOptions) => show(text, { ...options, type: "info" }),
  warning: (text: string, options?: ToastOptions) => show(text, { ...options, type: "warning" }),
  error: (text: string, options?: ToastOptions) => show(text, { ...options, type: "error" }),
});
