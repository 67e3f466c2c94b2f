/**
 * The service worker, served at /service-worker.js (docs/product.md#screens-routing). Built by vite-plugin-pwa
 * (injectManifest, see vite.config.ts). Precaching, saved screens, the offline outbox and the
 * update handshake are in app/offline/ (started by `startOffline()` below).
 *
 * Push: a push carries a PushMessage (contract/push.ts). When a page of the app is visible, the worker hands the message to it and the page shows the body as a toast
 * (docs/product.md#screens-app-wide: "Foreground push messages show their body as a toast"); otherwise it shows a
 * system notification, and a tap opens (or focuses) the app on the notification's screen.
 */
import type { PushMessage } from "#contract/push.ts";
import { FOREGROUND_PUSH, safeAppPath } from "#contract/push-routing.ts";
import { startOffline } from "#app/offline/worker.ts";

// The worker's own global scope, typed here: the app's tsconfig uses the DOM library, not WebWorker's.
interface WindowClientLike {
  url: string;
  visibilityState: "visible" | "hidden" | "prerender";
  focus(): Promise<WindowClientLike>;
  navigate(url: string): Promise<WindowClientLike | null>;
  postMessage(message: unknown): void;
}
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEventLike extends ExtendableEventLike {
  data: { json(): unknown; text(): string } | null;
}
interface NotificationEventLike extends ExtendableEventLike {
  notification: Notification;
}
interface WorkerScope {
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<WindowClientLike | null>;
    claim(): Promise<void>;
  };
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: "push", listener: (event: PushEventLike) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEventLike) => void): void;
}
const sw = self as unknown as WorkerScope;

startOffline();
sw.addEventListener("activate", (event) => {
  event.waitUntil(sw.clients.claim());
});

function readMessage(event: PushEventLike): PushMessage {
  const fallback: PushMessage = { type: "system", title: "PutSeller", body: "", url: null };
  if (!event.data) return fallback;
  try {
    const raw = event.data.json() as Partial<PushMessage>;
    return {
      type: typeof raw.type === "string" ? raw.type : "system",
      title: typeof raw.title === "string" && raw.title ? raw.title : fallback.title,
      body: typeof raw.body === "string" ? raw.body : "",
      url: typeof raw.url === "string" ? raw.url : null,
      notification_id: typeof raw.notification_id === "number" ? raw.notification_id : null,
    };
  } catch {
    // A plain-text push (e.g. a test message from a console) shows its text.
    return { ...fallback, body: event.data.text() };
  }
}

sw.addEventListener("push", (event) => {
  const message = readMessage(event);
  event.waitUntil(
    (async () => {
      const windows = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
      // "In the foreground" is a visible page of the app, as Firebase messaging also decides.
      const foreground = windows.filter((w) => w.visibilityState === "visible");
      if (foreground.length > 0) {
        for (const client of foreground) client.postMessage({ kind: FOREGROUND_PUSH, message });
        return;
      }
      await sw.registration.showNotification(message.title, {
        body: message.body,
        icon: "/favicon.svg",
        badge: "/favicon.svg",
        tag: message.notification_id ? `notification-${message.notification_id}` : undefined,
        data: { url: safeAppPath(message.url) },
      });
    })(),
  );
});

sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = safeAppPath((event.notification.data as { url?: string } | null)?.url);
  const target = new URL(path, sw.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === sw.location.origin);
      if (open) {
        const focused = await open.focus();
        await (focused ?? open).navigate(target);
        return;
      }
      await sw.clients.openWindow(target);
    })(),
  );
});
