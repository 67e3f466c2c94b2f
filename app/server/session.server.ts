import { createCookieSessionStorage } from "react-router";
import type { Permission } from "#contract/entities.ts";
import { appEnv } from "./env.server.ts";
import { seal, unseal } from "./sealed.server.ts";

/** What the session cookie holds: the token, userId, userName, userEmail and UserPermissions of docs/product.md#entities-browser-storage. */
export interface SessionUser {
  id: number;
  name: string;
  email: string;
  permissions: Permission[];
}

interface SessionData {
  token: string; // sealed
  user: SessionUser;
}

const THIRTY_DAYS = 30 * 24 * 3600;

function secrets(): string[] {
  const value = appEnv().SESSION_SECRET;
  if (!value) throw new Error("SESSION_SECRET is not set: server.ts sets one at start-up");
  return value.split(",").map((s) => s.trim());
}

export function cookieSecure(): boolean {
  const { COOKIE_SECURE, NODE_ENV } = appEnv();
  return COOKIE_SECURE ? COOKIE_SECURE === "true" : NODE_ENV === "production";
}

let storage: ReturnType<typeof createCookieSessionStorage<SessionData>> | undefined;
function sessionStorage() {
  storage ??= createCookieSessionStorage<SessionData>({
    cookie: {
      name: "__session",
      httpOnly: true,
      sameSite: "lax",
      secure: cookieSecure(),
      path: "/",
      maxAge: THIRTY_DAYS,
      secrets: secrets(),
    },
  });
  return storage;
}

type OpenedSession = { token: string; user: SessionUser } | undefined;

/**
 * Sessions already opened, by their cookie: checking the cookie's signature and unsealing the
 * token is the same work for the same cookie on every request (a pure function of the cookie and
 * the secrets, which do not change while the process runs). Whether the token still counts is
 * the provider's to say on each call, so a signed-out session is refused all the same.
 */
const opened = new Map<string, OpenedSession>();
const OPENED_MAX = 1_000;

export async function readSession(request: Request): Promise<OpenedSession> {
  const cookie = request.headers.get("cookie");
  const value = cookie ? /(?:^|;\s*)__session=([^;]*)/.exec(cookie)?.[1] : undefined;
  if (!value) return undefined;
  if (opened.has(value)) return opened.get(value);
  const session = await openSession(cookie);
  // Oldest first out: a Map iterates in insertion order.
  if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
  opened.set(value, session);
  return session;
}

async function openSession(cookie: string | null): Promise<OpenedSession> {
  const session = await sessionStorage().getSession(cookie);
  const sealed = session.get("token");
  const user = session.get("user");
  if (!sealed || !user) return undefined;
  const token = unseal(sealed, secrets());
  return token ? { token, user } : undefined;
}

/** A Set-Cookie value that starts a session holding the provider token and the user. */
export async function commitNewSession(token: string, user: SessionUser): Promise<string> {
  const session = await sessionStorage().getSession();
  session.set("token", seal(token, secrets()));
  session.set("user", user);
  return sessionStorage().commitSession(session);
}

/** A Set-Cookie value that ends the session. */
export async function destroySession(): Promise<string> {
  const session = await sessionStorage().getSession();
  return sessionStorage().destroySession(session);
}
