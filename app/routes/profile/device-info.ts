/**
 * docs/product.md#entities-device: browser and OS named from the user agent, for the device record and
 * for the iOS push warnings of docs/product.md#errors-console.
 */
export function browserName(ua: string): string {
  if (/Edg\//.test(ua)) return "Edge";
  if (/OPR\/|Opera/.test(ua)) return "Opera";
  if (/SamsungBrowser\//.test(ua)) return "Samsung Internet";
  if (/Firefox\/|FxiOS\//.test(ua)) return "Firefox";
  if (/Chrome\/|CriOS\/|Chromium\//.test(ua)) return "Chrome";
  if (/Safari\//.test(ua)) return "Safari";
  return "Unknown";
}

export function osName(ua: string): string {
  if (/iPhone|iPad|iPod/.test(ua)) return "iOS";
  if (/Android/.test(ua)) return "Android";
  if (/Windows/.test(ua)) return "Windows";
  if (/Mac OS X|Macintosh/.test(ua)) return "macOS";
  if (/CrOS/.test(ua)) return "ChromeOS";
  if (/Linux/.test(ua)) return "Linux";
  return "Unknown";
}

/** The iOS version as [major, minor], or null when not iOS. */
function iosVersion(ua: string): [number, number] | null {
  if (!/iPhone|iPad|iPod/.test(ua)) return null;
  const match = /OS (\d+)[_.](\d+)/.exec(ua);
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

/** docs/product.md#constants-display: push on iOS needs 16.4 or later. */
export function iosTooOldForPush(ua: string): boolean {
  const version = iosVersion(ua);
  if (!version) return false;
  const [major, minor] = version;
  return major < 16 || (major === 16 && minor < 4);
}
