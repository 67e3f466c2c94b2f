import type { Href } from "#app/lib/href.ts";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { toast } from "#app/lib/toast.ts";
import { browserName, iosTooOldForPush, osName } from "#app/routes/profile/device-info.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { toggleErrorText } from "#app/routes/profile/notifications.ts";
import { deviceToken, pushSupported } from "./push-client.ts";
import { storedDeviceToken } from "#app/lib/device-token.ts";

type PushStatus = "checking" | "on" | "off";

const DEVICE_URL = "/resources/push-device" satisfies Href;

/**
 * docs/product.md#states-push: on needs the browser's permission, the signed-in user and a device
 * token; the state flips once the device record with notification_opt_in '1' or '0' is stored.
 * The current state is the stored device's opt-in for this browser's token.
 */
export function usePushToggle({
  userId,
  publicKey,
  appVersion,
}: {
  userId: number | null;
  publicKey: string | null;
  appVersion: string;
}) {
  // null on the server and while hydrating; then whether this browser kept a device token.
  const hasToken = useSyncExternalStore(
    subscribeNothing,
    () => Boolean(storedDeviceToken()) && pushSupported(),
    () => null,
  );
  const [stored, setStored] = useState<PushStatus | null>(null);
  const [chosen, setChosen] = useState<PushStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const status: PushStatus = chosen ?? (hasToken === null ? "checking" : hasToken ? (stored ?? "checking") : "off");

  useEffect(() => warnAboutPlatform(), []);

  useEffect(() => {
    const token = storedDeviceToken();
    if (!hasToken || !token) return;
    const controller = new AbortController();
    fetch(`${DEVICE_URL}?token=${encodeURIComponent(token)}`, { signal: controller.signal })
      .then((res) => (res.ok ? (res.json() as Promise<{ opt_in: boolean }>) : { opt_in: false }))
      .then((device) => setStored(device.opt_in && Notification.permission === "granted" ? "on" : "off"))
      .catch(() => {
        if (!controller.signal.aborted) setStored("off");
      });
    return () => controller.abort();
  }, [hasToken]);

  const toggle = useCallback(async () => {
    if (busy || status === "checking") return;
    setBusy(true);
    try {
      const turnOn = status !== "on";
      let token: string | null;
      if (turnOn) {
        const permission = !("Notification" in window)
          ? "denied"
          : Notification.permission === "granted"
            ? "granted"
            : await Notification.requestPermission();
        if (permission !== "granted") return fail(messages.enableBrowserNotifications);
        if (!userId) return fail(messages.userIdNotFound);
        token = publicKey && pushSupported() ? await deviceToken(publicKey) : null;
        if (!token) return fail(messages.fcmTokenFailed);
      } else {
        token = storedDeviceToken();
        if (!token) return setChosen("off");
      }
      const res = await fetch(DEVICE_URL, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          fcm_token: token,
          browser: browserName(navigator.userAgent),
          os: osName(navigator.userAgent),
          user_agent: navigator.userAgent.slice(0, 1000),
          app_version: appVersion,
          notification_opt_in: turnOn ? "1" : "0",
        }),
      });
      const body = (await res.json().catch(() => null)) as { ok?: boolean; opt_in?: boolean } | null;
      if (!res.ok || !body?.ok) return fail(toggleErrorText(res.status, messages.togglePushFailed));
      setChosen(body.opt_in ? "on" : "off");
    } catch {
      fail(messages.togglePushFailed);
    } finally {
      setBusy(false);
    }
  }, [busy, status, userId, publicKey, appVersion]);

  return { status, busy, toggle };
}

const subscribeNothing = () => () => {};

function fail(text: string): void {
  toast.error(text, { autoClose: TOAST_MS.app });
}

/** docs/product.md#errors-console: on iOS push needs the installed app and iOS 16.4 or later. */
function warnAboutPlatform(): void {
  const ua = navigator.userAgent;
  if (!/iPhone|iPad|iPod/.test(ua)) return;
  const standalone =
    window.matchMedia("(display-mode: standalone)").matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true;
  if (!standalone) console.warn(messages.pushNeedsHomeScreen);
  if (iosTooOldForPush(ua)) console.warn(messages.pushNeedsIos164);
}
