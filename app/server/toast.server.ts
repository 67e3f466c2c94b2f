import { createCookieSessionStorage, redirect } from "react-router";
import { z } from "zod";
import { appEnv } from "./env.server.ts";
import { cookieSecure } from "./session.server.ts";

/** A message shown once on the next page (docs/product.md#screens-login: "a message handed over from the previous page"). */
export const Toast = z.object({
  type: z.enum(["success", "error", "info", "warning"]).default("info"),
  text: z.string(),
  /** ms before it closes; docs/product.md#constants-timings sets 3000, 2000 or 1000 by screen. */
  autoClose: z.number().int().positive().default(3000),
  /** Also clear the browser's localStorage (sign-out and expired sessions, docs/product.md#screens-routing). */
  clearStorage: z.boolean().default(false),
  /** Lets the toaster show each toast once, even when a page renders twice. */
  id: z.string().default(() => crypto.randomUUID()),
});
export type Toast = z.infer<typeof Toast>;
export type ToastInput = z.input<typeof Toast>;

const KEY = "toast";
let storage: ReturnType<typeof createCookieSessionStorage<Record<string, never>, { toast: Toast }>> | undefined;
function toastStorage() {
  storage ??= createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
    cookie: {
      name: "__toast",
      httpOnly: true,
      sameSite: "lax",
      secure: cookieSecure(),
      path: "/",
      secrets: (appEnv().SESSION_SECRET ?? "").split(","),
    },
  });
  return storage;
}

export async function toastCookie(toast: ToastInput): Promise<string> {
  const session = await toastStorage().getSession();
  session.flash(KEY, Toast.parse(toast));
  return toastStorage().commitSession(session);
}

export async function redirectWithToast(url: string, toast: ToastInput, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("set-cookie", await toastCookie(toast));
  return redirect(url, { ...init, headers });
}

/** Reads and consumes the flash toast; the returned header clears it. */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; setCookie: string | null }> {
  const session = await toastStorage().getSession(request.headers.get("cookie"));
  const raw = session.get(KEY);
  if (raw === undefined) return { toast: null, setCookie: null };
  const parsed = Toast.safeParse(raw);
  return { toast: parsed.success ? parsed.data : null, setCookie: await toastStorage().destroySession(session) };
}

/**
 * The toast a response's Set-Cookie line would flash, or null (another cookie, or not ours). An
 * offline replay tells it at once instead of leaving it for the next page (app/offline/middleware.server.ts).
 */
export async function toastFromSetCookie(setCookie: string): Promise<Toast | null> {
  const pair = setCookie.split(";")[0] ?? "";
  if (!pair.startsWith(`__toast=`)) return null;
  const session = await toastStorage().getSession(pair);
  const parsed = Toast.safeParse(session.get(KEY));
  return parsed.success ? parsed.data : null;
}
