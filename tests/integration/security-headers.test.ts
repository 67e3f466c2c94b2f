import { describe, expect, it } from "vitest";
import type { Request, Response } from "express";
import { securityHeaders } from "../../server/security-headers.ts";

function headersFor(options: Parameters<typeof securityHeaders>[0]): Record<string, string> {
  const set: Record<string, string> = {};
  const res = {
    locals: {},
    set: (values: Record<string, string>) => Object.assign(set, values),
  } as unknown as Response;
  securityHeaders(options)({} as Request, res, () => {});
  return set;
}

const google = { apiKey: "k", authDomain: "putseller.firebaseapp.com", projectId: "putseller" };

describe("security headers and Google sign-in", () => {
  it("keeps the strict policy when Google sign-in is not configured", () => {
    const h = headersFor({ production: true, google: null });
    expect(h["content-security-policy"]).toContain("connect-src 'self';");
    expect(h["content-security-policy"]).toContain("frame-src 'self';");
    expect(h["cross-origin-opener-policy"]).toBe("same-origin");
  });

  it("opens only Firebase's hosts, keeps scripts nonce-based, and lets the popup report back", () => {
    const h = headersFor({ production: true, google });
    const csp = h["content-security-policy"]!;
    expect(csp).toMatch(
      /connect-src 'self' https:\/\/identitytoolkit\.googleapis\.com https:\/\/securetoken\.googleapis\.com/,
    );
    expect(csp).toContain("frame-src 'self' https://putseller.firebaseapp.com;");
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic';/);
    expect(csp).not.toContain("unsafe-inline' 'strict");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(h["cross-origin-opener-policy"]).toBe("same-origin-allow-popups");
  });

  it("sends HSTS and upgrade-insecure-requests in production only (development runs on plain http)", () => {
    // res.set in both forms: an object, and a name and value.
    const headersOf = (production: boolean) => {
      const set: Record<string, string> = {};
      const res = {
        locals: {},
        set: (name: string | Record<string, string>, value?: string) =>
          typeof name === "string" ? (set[name] = value!) : Object.assign(set, name),
      } as unknown as Response;
      securityHeaders({ production, google: null })({} as Request, res, () => {});
      return set;
    };
    const production = headersOf(true);
    expect(production["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(production["content-security-policy"]).toContain("upgrade-insecure-requests");
    const development = headersOf(false);
    expect(development["strict-transport-security"]).toBeUndefined();
    expect(development["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    expect(development["x-content-type-options"]).toBe("nosniff");
  });

  it("points at the emulator instead of Google when one stands in", () => {
    const csp = headersFor({ production: false, google: { ...google, emulatorUrl: "http://127.0.0.1:9099" } })[
      "content-security-policy"
    ]!;
    expect(csp).toContain("frame-src 'self' http://127.0.0.1:9099;");
    expect(csp).toMatch(/connect-src [^;]*http:\/\/127\.0\.0\.1:9099/);
    expect(csp).not.toContain("identitytoolkit");
  });
});
