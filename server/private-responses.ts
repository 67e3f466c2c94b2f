import type { RequestHandler } from "express";

export const PRIVATE_NO_STORE = "private, no-store";
const SESSION_COOKIE = /(?:^|;\s*)__session=/;

/**
 * Every response to a signed-in request (pages, `.data`, resource routes), and every response that
 * starts a session, is `Cache-Control: private, no-store`, whatever the route set: Back after
 * sign-out and shared caches then show nothing of the previous user. Set as the headers go out,
 * since React Router appends its own. Mounted after the static files, which hold nothing private.
 */
export function privateResponses(): RequestHandler {
  return (req, res, next) => {
    const signedIn = SESSION_COOKIE.test(req.headers.cookie ?? "");
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      const setCookie = res.getHeader("set-cookie");
      const startsSession = [setCookie ?? []].flat().some((c) => String(c).startsWith("__session="));
      if (signedIn || startsSession) {
        // Keep a route's no-transform (the AI streams): it stops compression from holding the text back.
        const own = String(res.getHeader("cache-control") ?? "");
        res.setHeader(
          "cache-control",
          /\bno-transform\b/.test(own) ? `${PRIVATE_NO_STORE}, no-transform` : PRIVATE_NO_STORE,
        );
      }
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  };
}
