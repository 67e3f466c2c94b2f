/**
 * The address of the person behind a request, for per-IP rate limits.
 *
 * The web app calls the provider from its server, so the provider's peer is the app; the app
 * names the browser's address in X-Forwarded-For. That header is believed only from peers we
 * trust: loopback (the embedded provider), in-process calls, and PROVIDER_TRUSTED_PROXIES.
 */
const addresses = new WeakMap<Request, string>();

export interface ClientInfo {
  /** The TCP peer's address; absent for in-process calls (tests, the embedded app). */
  clientAddress?: string | undefined;
}

export function recordClientIp(
  request: Request,
  info: ClientInfo | undefined,
  trustedProxies: readonly string[],
): void {
  const peer = info?.clientAddress ? normalize(info.clientAddress) : undefined;
  const trusted = peer === undefined || isLoopback(peer) || trustedProxies.some((entry) => matches(entry, peer));
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  addresses.set(request, normalize((trusted && forwarded) || peer || "unknown"));
}

export function clientIp(request: Request): string {
  return addresses.get(request) ?? "unknown";
}

function normalize(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "").toLowerCase();
}

/** An address, or an IPv4 block such as 172.28.0.0/24 (app replicas whose addresses change). */
function matches(entry: string, peer: string): boolean {
  const [base, bits] = entry.trim().split("/");
  if (bits === undefined) return normalize(base!) === peer;
  const [from, address, prefix] = [ipv4(base!), ipv4(peer), Number(bits)];
  if (from === null || address === null || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) return false;
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return (from & mask) >>> 0 === (address & mask) >>> 0;
}

function ipv4(address: string): number | null {
  const parts = address.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return null;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

function isLoopback(address: string): boolean {
  return address === "::1" || /^127\./.test(address);
}
