/** The device token kept in the browser (docs/product.md#entities-browser-storage). */
export const DEVICE_TOKEN_KEY = "fcm_token";

/**
 * This browser's stored device token (fcm_token, docs/product.md#entities-browser-storage), or null. Apart from push-client.ts,
 * which makes the token, so that every screen can read it without loading the subscribing code.
 */
export function storedDeviceToken(): string | null {
  try {
    return window.localStorage.getItem(DEVICE_TOKEN_KEY);
  } catch {
    return null;
  }
}
