import type { MiddlewareFunction } from "react-router";
import { SIGNED_OUT_HEADER } from "#app/lib/signed-out.ts";
import { readSession } from "./session.server.ts";

/**
 * Issue 19 item 4: a session can end without sign-out (the cookie expired, was dropped, or its
 * token was refused and the cookie destroyed). The next read that finds no session — a signed-in
 * screen sending the browser to /login, /login itself — is marked, and the service worker forgets
 * what it saved of the last user (docs/decisions/0032-offline-copies-forgotten-when-no-session.md).
 * Only reads are marked, and a signed-in request never is, so the outbox of a user who is still
 * signed in stays.
 */
export const signedOutMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next();
  if (request.method !== "GET" && request.method !== "HEAD") return response;
  if (await readSession(request)) return response;
  try {
    response.headers.set(SIGNED_OUT_HEADER, "1");
    return response;
  } catch {
    // Headers of a response another part made immutable: answer a copy.
    const headers = new Headers(response.headers);
    headers.set(SIGNED_OUT_HEADER, "1");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
};
