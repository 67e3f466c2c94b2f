import type { Request, RequestHandler } from "express";

/** Methods that change nothing; everything else must come from our own pages. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_REFUSED = "Cross-site requests are refused. Open the app and try again.";

/**
 * Refuses a state-changing request sent by another site's page (cross-site request forgery):
 * the browser marks it `Sec-Fetch-Site: cross-site`, or names another host (or `null`) in
 * `Origin`. Requests without either header (curl, old browsers) pass: SameSite=Lax session
 * cookies already keep a browser's session out of them. React Router checks Origin for route
 * actions too; this also covers resource routes (AI streams, push device) and requests with
 * Sec-Fetch-Site but no Origin. See docs/decisions/0014-refuse-cross-site-posts.md.
 */
export function refuseCrossSitePosts(): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get("sec-fetch-site");
    const origin = req.get("origin");
    const crossSite = site === "cross-site" || site === "same-site";
    if (crossSite || (origin !== undefined && !fromOwnHost(origin, req))) {
      res.status(403).set("cache-control", "no-store").type("text/plain").send(CROSS_SITE_REFUSED);
      return;
    }
    next();
  };
}

/** Whether Origin names the host the request was sent to (as React Router's adapter resolves it). */
function fromOwnHost(origin: string, req: Request): boolean {
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false; // `null` (sandboxed frames, no-referrer pages) or garbage
  }
  const forwarded = req.app.enabled("trust proxy") ? req.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const own = forwarded || req.get("host");
  return own !== undefined && host.toLowerCase() === own.toLowerCase();
}
