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
  const trusted = peer === undefined || isLoopback(peer) || trustedProxies.map(normalize).includes(peer);
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  addresses.set(request, normalize((trusted && forwarded) || peer || "unknown"));
}

export function clientIp(request: Request): string {
  return addresses.get(request) ?? "unknown";
}

function normalize(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "").toLowerCase();
}

function isLoopback(address: string): boolean {
  return address === "::1" || /^127\./.test(address);
}
