import type { HrefWithSearch } from "#app/lib/href.ts";
import { useEffect, useState, useSyncExternalStore } from "react";
import { Link } from "react-router";
import { messages } from "#app/lib/messages.ts";
import { DEVICE_TOKEN_KEY } from "#app/lib/device-token.ts";
import { BellIcon, CloseIcon } from "#app/components/icons.tsx";

/** docs/product.md#constants-timings: the notifications banner hides after 6 s. */
const BANNER_MS = 6000;

/** When the banner was first shown in this visit (sessionStorage), so it shows once and for 6 s in all. */
const SHOWN_AT_KEY = "pushBannerShownAt";

/**
 * docs/product.md#screens-app-wide: 'Notifications are not enabled.' with 'Enable Notifications',
 * hidden after 6 s. Shown once per visit to someone who turned push on in this browser
 * (a device token is kept) but whose browser no longer allows notifications, so the alerts
 * they expect would not arrive. The button leads to the push switch on the profile.
 */
export function PushBanner() {
  const eligible = useSyncExternalStore(subscribeNothing, bannerDue, () => false);
  const [hidden, setHidden] = useState(false);

  useEffect(() => {
    if (!eligible) return;
    const shownAt = Number(readSession(SHOWN_AT_KEY) ?? Date.now());
    writeSession(SHOWN_AT_KEY, String(shownAt));
    const timer = setTimeout(() => setHidden(true), Math.max(0, BANNER_MS - (Date.now() - shownAt)));
    return () => clearTimeout(timer);
  }, [eligible]);

  const dismiss = () => {
    writeSession(SHOWN_AT_KEY, "0");
    setHidden(true);
  };

  if (!eligible || hidden) return null;
  return (
    <div className="push-banner" role="status">
      <BellIcon aria-hidden="true" />
      <span className="push-banner__text">{messages.notificationsNotEnabled}</span>
      <Link to={"/profile#push" satisfies HrefWithSearch} className="button button--small" onClick={dismiss}>
        Enable Notifications
      </Link>
      <button type="button" className="icon-button icon-button--small" aria-label="Dismiss" onClick={dismiss}>
        <CloseIcon width={18} height={18} />
      </button>
    </div>
  );
}

const subscribeNothing = () => () => {};

/** Whether the banner should be on screen now: push was on here, the browser refuses it, 6 s not yet spent. */
function bannerDue(): boolean {
  try {
    if (!("Notification" in window) || Notification.permission === "granted") return false;
    if (!window.localStorage.getItem(DEVICE_TOKEN_KEY)) return false;
    const shownAt = readSession(SHOWN_AT_KEY);
    return shownAt === null || Date.now() - Number(shownAt) < BANNER_MS;
  } catch {
    return false;
  }
}

function readSession(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeSession(key: string, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // Storage blocked: the banner may show again on the next page.
  }
}
