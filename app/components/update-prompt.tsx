import { useEffect, useRef, useState } from "react";
import { messages } from "#app/lib/messages.ts";
import { AGREED_TO_REFRESH_KEY, SW } from "#app/offline/index.ts";

/** How often an open app looks for a new version while it is in the foreground. */
const CHECK_EVERY_MS = 60 * 60 * 1000;

function agreed(): boolean {
  try {
    return window.localStorage.getItem(AGREED_TO_REFRESH_KEY) === "true";
  } catch {
    return false;
  }
}

/**
 * docs/product.md#screens-app-wide, #states-sw-update: when a new service-worker version waits, ask 'New version available! Refresh
 * now?'. On consent the waiting worker activates and the page reloads once it has taken over;
 * the consent is remembered (localStorage `hasAgreedToRefresh`) and later versions are taken
 * silently. A new worker on a first visit (nothing to replace) is not a new version.
 */
export function UpdatePrompt() {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);
  /** This page asked a worker to take over: reload when it has. */
  const asked = useRef(false);

  useEffect(() => {
    if (!("serviceWorker" in navigator) || !import.meta.env.PROD) return;
    const container = navigator.serviceWorker;
    let hadController = Boolean(container.controller);
    let reloading = false;
    let registration: ServiceWorkerRegistration | null = null;
    let lastCheck = Date.now();

    const onControllerChange = () => {
      // The first worker taking over a fresh visit replaces nothing.
      if (!hadController) {
        hadController = true;
        return;
      }
      if (reloading || !(asked.current || agreed())) return;
      reloading = true;
      window.location.reload();
    };
    const offer = (worker: ServiceWorker) => {
      if (!container.controller) return;
      if (agreed()) {
        asked.current = true;
        worker.postMessage({ kind: SW.skipWaiting });
      } else {
        setWaiting(worker);
      }
    };
    const whenInstalled = (installing: ServiceWorker | null) => {
      installing?.addEventListener("statechange", () => {
        if (installing.state === "installed") offer(installing);
      });
    };
    const watch = (found: ServiceWorkerRegistration) => {
      registration = found;
      if (found.waiting) offer(found.waiting);
      // The scripts run after the first paint (ADR 0044): the browser's own look on this page
      // load may have found a new worker already, still installing, before this listens.
      whenInstalled(found.installing);
      found.addEventListener("updatefound", () => whenInstalled(found.installing));
    };
    // Browsers look for a new worker on page loads; an app left open looks when it comes back.
    const check = () => {
      if (document.visibilityState !== "visible" || Date.now() - lastCheck < 60_000) return;
      lastCheck = Date.now();
      registration?.update().catch(() => undefined);
    };
    const timer = setInterval(() => registration?.update().catch(() => undefined), CHECK_EVERY_MS);

    container.addEventListener("controllerchange", onControllerChange);
    document.addEventListener("visibilitychange", check);
    void container.ready.then(watch);
    return () => {
      clearInterval(timer);
      container.removeEventListener("controllerchange", onControllerChange);
      document.removeEventListener("visibilitychange", check);
    };
  }, []);

  if (!waiting) return null;
  return (
    <div className="update-prompt" role="alertdialog" aria-labelledby="update-prompt-text">
      <p id="update-prompt-text">{messages.newVersion}</p>
      <div className="update-prompt__actions">
        <button type="button" className="pwa-button" onClick={() => setWaiting(null)}>
          {messages.refreshLater}
        </button>
        <button
          type="button"
          className="pwa-button pwa-button--primary"
          onClick={() => {
            try {
              window.localStorage.setItem(AGREED_TO_REFRESH_KEY, "true");
            } catch {
              // Storage may be full or blocked: this time still counts.
            }
            asked.current = true;
            waiting.postMessage({ kind: SW.skipWaiting });
            setWaiting(null);
          }}
        >
          {messages.refreshNow}
        </button>
      </div>
    </div>
  );
}
