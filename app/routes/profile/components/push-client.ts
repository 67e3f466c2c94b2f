import { DEVICE_TOKEN_KEY } from "#app/lib/device-token.ts";

/**
 * The browser half of push: the device token is this browser's Web Push subscription, made with
 * the provider's VAPID public key and kept in localStorage as fcm_token (docs/product.md#entities-browser-storage).
 */

/** docs/product.md#constants-timings: the service worker must be ready within 10 s. */
const SERVICE_WORKER_READY_MS = 10_000;

export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window
  );
}

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(value.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("Timed out")), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * This browser's device token: its push subscription for `publicKey`, made when missing.
 * A subscription made for another key (the provider's keys changed) is replaced.
 * Resolves to null when the browser cannot subscribe (no push service, blocked, timed out).
 */
export async function deviceToken(publicKey: string): Promise<string | null> {
  try {
    const registration = await withTimeout(navigator.serviceWorker.ready, SERVICE_WORKER_READY_MS);
    const key = base64UrlToBytes(publicKey);
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await withTimeout(
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
      SERVICE_WORKER_READY_MS,
    );
    const token = JSON.stringify(subscription.toJSON());
    window.localStorage.setItem(DEVICE_TOKEN_KEY, token);
    return token;
  } catch (error) {
    console.warn("[push] could not get a device token:", error);
    return null;
  }
}
