import type { IncomingMessage } from "node:http";
import * as calls from "#contract/calls.ts";
import { callProvider, ProviderError } from "#app/server/provider.server.ts";
import { readSession } from "#app/server/session.server.ts";
import type { LiveGrant } from "./live-relay.ts";

/**
 * The provider token of the signed-in browser behind a websocket upgrade request, read from the
 * session cookie as the app's loaders read it (readSession takes a Request; only the cookie
 * matters), and when it expires. The session lasts as long as its token: the first provider call
 * after the expiry is answered 401, which ends the session.
 */
export async function liveSessionOf(request: IncomingMessage): Promise<LiveGrant | undefined> {
  const cookie = request.headers.cookie;
  if (!cookie) return undefined;
  const session = await readSession(new Request("http://app.invalid/", { headers: { cookie } }));
  return session ? { token: session.token, expiresAt: tokenExpiry(session.token), userId: session.user.id } : undefined;
}

/**
 * The `exp` of a JWT bearer token in ms since the epoch, else undefined (another provider's
 * opaque token). Read without checking the signature: the token came out of our own sealed
 * cookie, and the provider checks it on every use; this only says when to stop using it.
 */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    const { exp } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown };
    return typeof exp === "number" && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the provider still accepts `token` (false once the session was signed out or its
 * password reset). An unreachable provider counts as accepting: its own sockets are down then,
 * and browsers should not be dropped for it. It is the app's own provider call (`callProvider`):
 * handed in-process to an embedded provider (ADR 0045), fetched from an external one.
 */
export async function providerAccepts(token: string): Promise<boolean> {
  try {
    await callProvider(calls.me, { token, signal: AbortSignal.timeout(3000) });
    return true;
  } catch (error) {
    return !(error instanceof ProviderError && error.status === 401);
  }
}
