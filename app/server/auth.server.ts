import type { Href, HrefWithSearch } from "#app/lib/href.ts";
import { redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { Endpoint, ResponseOf } from "#contract/endpoint.ts";
import * as calls from "#contract/calls.ts";
import { IDEMPOTENCY_HEADER } from "#contract/calls.ts";
import type { PermissionAction, PermissionObject } from "#contract/entities.ts";
import { messages } from "#app/lib/messages.ts";
import { sessionContext } from "./context.server.ts";
import { callProvider, ProviderError, type CallInput } from "./provider.server.ts";
import { destroySession, readSession, type SessionUser } from "./session.server.ts";
import { redirectWithToast, toastCookie } from "./toast.server.ts";
import { providerKey } from "#app/offline/index.server.ts";

/** Route middleware: anyone without a session goes to /login. */
export const requireSessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }) => {
  const session = await readSession(request);
  if (!session) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    throw redirect(
      back === "/"
        ? ("/login" satisfies Href)
        : (`/login?redirectTo=${encodeURIComponent(back)}` satisfies HrefWithSearch),
    );
  }
  context.set(sessionContext, session);
};

export function requireUser(context: Readonly<RouterContextProvider>): SessionUser {
  const session = context.get(sessionContext);
  if (!session) throw redirect("/login" satisfies Href);
  return session.user;
}

export function hasPermission(user: SessionUser, object: PermissionObject, action: PermissionAction): boolean {
  return user.permissions.some((p) => p.object === object && p.action === action);
}

/** docs/product.md#roles: admin when holding any of VIEW, CREATE, UPDATE or DELETE on BACKEND_CONFIG. */
export function isAdmin(user: SessionUser): boolean {
  return user.permissions.some((p) => p.object === "BACKEND_CONFIG");
}

/**
 * Calls the provider as the signed-in user. A 401 ends the session: the cookie is destroyed,
 * the browser's storage cleared and the user sent to /login (docs/product.md#screens-routing, #errors-session).
 */
export async function userCall<E extends Endpoint>(
  context: Readonly<RouterContextProvider>,
  endpoint: E,
  input: Omit<CallInput, "token"> = {},
): Promise<ResponseOf<E>> {
  const session = context.get(sessionContext);
  if (!session) throw redirect("/login" satisfies Href);
  // A change sent from the offline outbox is applied once (app/offline/middleware.server.ts).
  const key = endpoint.method === "GET" ? undefined : providerKey(context);
  const headers = key ? { ...input.headers, [IDEMPOTENCY_HEADER]: key } : input.headers;
  try {
    return await callProvider(endpoint, { ...input, ...(headers ? { headers } : {}), token: session.token });
  } catch (error) {
    if (error instanceof ProviderError && error.status === 401) throw await sessionExpired();
    throw error;
  }
}

async function sessionExpired(): Promise<Response> {
  return redirectWithToast(
    "/login" satisfies Href,
    { type: "error", text: messages.sessionExpired, clearStorage: true },
    { headers: { "set-cookie": await destroySession() } },
  );
}

/** A fresh sign-in whose permissions could not be read; its message says why, in the product's words. */
export class PermissionsUnavailable extends Error {}

/** docs/product.md#errors-session: why the permissions of a sign-in could not be read. */
export function permissionsFailureText(error: unknown): string {
  if (!(error instanceof ProviderError)) return messages.permissionsUnexpected;
  if (error.status === 0) return messages.permissionsNetwork;
  return messages.permissionsFailed(error.status, error.statusText);
}

/** Signs in with a fresh token: loads the user and their permissions for the session. */
export async function loadSessionUser(token: string): Promise<SessionUser> {
  const me = await callProvider(calls.me, { token });
  const permissions = await callProvider(calls.permissions, { token, params: { userId: me.id } }).catch(
    (error: unknown) => {
      throw new PermissionsUnavailable(permissionsFailureText(error), { cause: error });
    },
  );
  return { id: me.id, name: me.name, email: me.email, permissions };
}

export async function logout(request: Request): Promise<Response> {
  // The provider refuses this session's token from now on, so a copy of the cookie kept from
  // before opens nothing. The cookie goes even if the provider cannot be reached.
  const session = await readSession(request);
  if (session) await callProvider(calls.logout, { token: session.token }).catch(() => {});
  const headers = new Headers();
  headers.append("set-cookie", await destroySession());
  headers.append("set-cookie", await toastCookie({ type: "success", text: messages.loggedOut, clearStorage: true }));
  return redirect("/login" satisfies Href, { headers });
}
