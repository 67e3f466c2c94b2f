/**
 * Push services the provider will post to. A subscription names its endpoint URL, so without
 * this list a caller could make the provider send requests to any host (SSRF).
 * Chrome (FCM), Firefox (Mozilla autopush), Edge (WNS) and Safari (Apple).
 */
export const DEFAULT_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "push.services.mozilla.com",
  "notify.windows.com",
  "push.apple.com",
] as const;

/** The host itself or a subdomain of an allowed entry. */
export function pushHostAllowed(hostname: string, allowed: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return allowed.some((entry) => {
    const e = entry.toLowerCase().trim();
    return e !== "" && (host === e || host.endsWith(`.${e}`));
  });
}
