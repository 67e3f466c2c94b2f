import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import type { GoogleWebConfig } from "#app/server/firebase.server.ts";

/**
 * Security headers with a fresh CSP nonce per request (res.locals.cspNonce), passed to
 * React Router so every script it renders carries the nonce; no inline script runs without it.
 */
export function securityHeaders({
  production,
  google,
}: {
  production: boolean;
  /** Google sign-in's Firebase config, when configured: its hosts join connect-src and frame-src. */
  google?: GoogleWebConfig | null;
}): RequestHandler {
  const googleHosts = firebaseHosts(google);
  return (_req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    const directives = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
      // Toasts and charts set inline styles; styles cannot run code.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https:",
      "font-src 'self'",
      [
        production ? "connect-src 'self'" : "connect-src 'self' ws://localhost:* ws://127.0.0.1:*",
        ...googleHosts.connect,
      ].join(" "),
      ["frame-src 'self'", ...googleHosts.frame].join(" "),
      "worker-src 'self'",
      "manifest-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ];
    if (production) directives.push("upgrade-insecure-requests");
    res.set({
      "content-security-policy": directives.join("; "),
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-frame-options": "DENY",
      // The Google sign-in popup reports back to its opener, which "same-origin" would cut off.
      "cross-origin-opener-policy": google ? "same-origin-allow-popups" : "same-origin",
      "permissions-policy": "camera=(), microphone=(), geolocation=()",
    });
    if (production) res.set("strict-transport-security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/**
 * What Firebase Auth's popup sign-in talks to: its REST hosts and the auth domain's helper
 * iframe, or the emulator in their place. Its scripts need no entry: 'strict-dynamic' trusts
 * scripts added by our own nonce'd scripts.
 */
function firebaseHosts(google: GoogleWebConfig | null | undefined): { connect: string[]; frame: string[] } {
  if (!google) return { connect: [], frame: [] };
  if (google.emulatorUrl) return { connect: [google.emulatorUrl], frame: [google.emulatorUrl] };
  return {
    connect: [
      "https://identitytoolkit.googleapis.com",
      "https://securetoken.googleapis.com",
      "https://www.googleapis.com",
      "https://apis.google.com",
    ],
    frame: [`https://${google.authDomain}`],
  };
}
