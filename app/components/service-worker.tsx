import { useEffect, useEffectEvent } from "react";
import { useLocation, useRevalidator } from "react-router";
import { toast } from "#app/lib/toast.ts";
import { FOREGROUND_PUSH } from "#contract/push-routing.ts";
import { TOAST_MS } from "#app/lib/messages.ts";
import { storedDeviceToken } from "#app/lib/device-token.ts";
import { SERVICE_WORKER_URL } from "#app/offline/index.ts";

/**
 * Registers the service worker, and shows a push that arrives while the app is in the
 * foreground as a toast with its body (docs/product.md#screens-app-wide), refreshing the page's data so counts update.
 */
export function ServiceWorker() {
  const revalidator = useRevalidator();
  const onForegroundPush = useEffectEvent((body: string) => {
    toast.info(body, { autoClose: TOAST_MS.app });
    void revalidator.revalidate();
  });

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    // The development server has no built worker; the PWA work can add one there.
    if (import.meta.env.PROD) {
      navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" }).catch((error: unknown) => {
        console.warn("[service-worker] registration failed:", error);
      });
    }
  }, []);

  // After every navigation (sign-out lands on /login without a page load), look for a subscription
  // whose token was cleared.
  const { key } = useLocation();
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker
      .getRegistration("/")
      .then((registration) => (registration ? forgetOrphanedSubscription(registration) : undefined))
      .catch((error: unknown) => console.warn("[push] could not end an orphaned subscription:", error));
  }, [key]);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { kind?: string; message?: { body?: unknown; type?: unknown } } | null;
      if (data?.kind !== FOREGROUND_PUSH || typeof data.message?.body !== "string") return;
      onForegroundPush(data.message.body);
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, []);

  return null;
}

/**
 * Signing out clears local storage, fcm_token included (docs/product.md#screens-profile). A push subscription left
 * without its token belongs to someone who signed out: end it, so their alerts stop arriving in
 * this browser (the provider forgets the device when the push service answers 410).
 */
async function forgetOrphanedSubscription(registration: ServiceWorkerRegistration): Promise<void> {
  if (!("pushManager" in registration) || storedDeviceToken()) return;
  const subscription = await registration.pushManager.getSubscription();
  if (subscription) await subscription.unsubscribe();
}
