import { describe, expect, it } from "vitest";
import { clientIp, recordClientIp } from "./client-ip.ts";

const request = (forwardedFor?: string) =>
  new Request("http://provider.test/auth/token", { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });

function ipOf(forwardedFor: string | undefined, peer: string | undefined, trusted: string[] = []) {
  const r = request(forwardedFor);
  recordClientIp(r, peer === undefined ? undefined : { clientAddress: peer }, trusted);
  return clientIp(r);
}

describe("client address", () => {
  it("believes X-Forwarded-For from the web app on loopback (the embedded setup)", () => {
    expect(ipOf("203.0.113.9", "127.0.0.1")).toBe("203.0.113.9");
    expect(ipOf("203.0.113.9, 10.0.0.1", "::1")).toBe("203.0.113.9");
    expect(ipOf("203.0.113.9", "::ffff:127.0.0.1")).toBe("203.0.113.9");
  });

  it("ignores X-Forwarded-For from a peer it does not trust, so a caller cannot pick its bucket", () => {
    expect(ipOf("203.0.113.9", "192.0.2.50")).toBe("192.0.2.50");
    expect(ipOf("203.0.113.9", "::ffff:192.0.2.50")).toBe("192.0.2.50");
  });

  it("believes the proxies it is told to trust", () => {
    expect(ipOf("203.0.113.9", "10.1.2.3", ["10.1.2.3"])).toBe("203.0.113.9");
  });

  it("believes a block of proxies given as an IPv4 CIDR (app replicas on a compose network), and only that block", () => {
    expect(ipOf("203.0.113.9", "172.28.0.17", ["172.28.0.0/24"])).toBe("203.0.113.9");
    expect(ipOf("203.0.113.9", "::ffff:172.28.0.200", ["172.28.0.0/24"])).toBe("203.0.113.9");
    expect(ipOf("203.0.113.9", "172.28.1.17", ["172.28.0.0/24"])).toBe("172.28.1.17");
    expect(ipOf("203.0.113.9", "172.28.1.17", ["172.28.0.0/33"])).toBe("172.28.1.17");
  });

  it("uses the peer when no header is sent, and a shared bucket for in-process calls without one", () => {
    expect(ipOf(undefined, "192.0.2.7")).toBe("192.0.2.7");
    expect(ipOf(undefined, undefined)).toBe("unknown");
  });
});
