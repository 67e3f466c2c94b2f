import type { Href } from "#app/lib/href.ts";
import {
  createContext,
  UNSAFE_decodeViaTurboStream,
  type MiddlewareFunction,
  type RouterContextProvider,
} from "react-router";
import { IDEMPOTENCY_HEADER } from "#contract/calls.ts";
import { isActionReply } from "#app/lib/action-reply.ts";
import { messages } from "#app/lib/messages.ts";
import { OFFLINE_REPLAY_HEADER, OFFLINE_SAVE_HEADER, OUTCOME_HEADER, type ReplayOutcome } from "./protocol.ts";
import { toastFromSetCookie } from "#app/server/toast.server.ts";

/**
 * The server's side of the offline outbox (docs/decisions/0017-offline-outbox-in-the-service-worker.md).
 *
 * 1. The service worker names every change with an Idempotency-Key; the action's changes to the
 *    provider carry it on (`providerKey`), so a change sent twice is applied once.
 * 2. A change sent again from the outbox (X-Offline-Replay) is answered with what became of it in
 *    X-Replay-Outcome: the toast the user would have seen, whether the action answered data or
 *    redirected with a flash toast (which is then not left for a later page).
 * 3. A page the worker fetches in the background to keep for offline (X-Offline-Save) hands the
 *    user no flash toast: had its row been deleted meanwhile, the edit page's "not found" redirect
 *    would otherwise show on whatever page the user opens next.
 */
interface RequestKey {
  key: string;
  calls: number;
}
const requestKeyContext = createContext<RequestKey | null>(null);
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

export const offlineMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (request.method === "GET" || request.method === "HEAD") {
    return request.headers.has(OFFLINE_SAVE_HEADER) ? withoutToast(await next()) : next();
  }
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key && KEY_PATTERN.test(key)) context.set(requestKeyContext, { key, calls: 0 });
  if (request.headers.get(OFFLINE_REPLAY_HEADER) !== "1") return next();
  return withOutcome(await next());
};

/**
 * The key for the next change this request makes of the provider: `<key>.1`, `<key>.2` … (an
 * action may make more than one; each is its own change). Undefined without a key.
 */
export function providerKey(context: Readonly<RouterContextProvider>): string | undefined {
  const state = context.get(requestKeyContext);
  if (!state) return undefined;
  state.calls += 1;
  return `${state.key}.${state.calls}`;
}

/** The response's headers without its flash toast's cookie, and that toast (null if none). */
async function takeToastCookie(response: Response) {
  const headers = new Headers(response.headers);
  const cookies = headers.getSetCookie();
  let toast = null;
  for (const cookie of cookies) toast ??= await toastFromSetCookie(cookie);
  if (toast) {
    headers.delete("set-cookie");
    for (const cookie of cookies) if (!cookie.startsWith("__toast=")) headers.append("set-cookie", cookie);
  }
  return { headers, toast };
}

async function withoutToast(response: Response): Promise<Response> {
  const { headers, toast } = await takeToastCookie(response);
  if (!toast) return response;
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function withOutcome(response: Response): Promise<Response> {
  // The flash toast is told now, in the outcome; it must not show again on a later page.
  const { headers, toast } = await takeToastCookie(response);

  const body = response.body === null ? null : await response.text();
  const outcome = await outcomeOf(response, body, toast);
  // The provider could not be reached from here: nothing happened, the change can be sent again.
  if (response.status >= 500 || outcome.text === messages.network) outcome.retry = true;
  headers.set(OUTCOME_HEADER, encodeURIComponent(JSON.stringify(outcome)));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

async function outcomeOf(
  response: Response,
  body: string | null,
  toast: { type: ReplayOutcome["type"]; text: string } | null,
): Promise<ReplayOutcome> {
  const location = response.headers.get("location");
  if (response.status >= 300 && response.status < 400 && location) {
    const target = new URL(location, "http://app.invalid");
    if (target.pathname === ("/login" satisfies Href)) {
      return { ok: false, type: "error", text: toast?.text ?? messages.sessionExpired, signedOut: true };
    }
    const redirectTo = target.pathname + target.search;
    return toast
      ? { ok: toast.type === "success" || toast.type === "info", type: toast.type, text: toast.text, redirectTo }
      : { ok: true, type: "success", text: "", redirectTo };
  }
  let value: unknown;
  if (body && (response.headers.get("content-type") ?? "").includes("text/x-script")) {
    try {
      const stream = new Response(body).body!;
      value = (await UNSAFE_decodeViaTurboStream(stream, globalThis as unknown as Window)).value;
    } catch {
      value = undefined;
    }
  }
  const result = (value ?? {}) as { data?: unknown; error?: unknown };
  if ("error" in result && result.error !== undefined) {
    const error = result.error as { message?: string; data?: unknown; statusText?: string };
    const text = typeof error.data === "string" ? error.data : (error.message ?? error.statusText);
    return { ok: false, type: "error", text: text || messages.unexpected };
  }
  const data = result.data as { toast?: { type?: string; text?: string }; result?: unknown } | undefined;
  if (isActionReply(data)) return { ok: data.ok, type: data.toast.type, text: data.toast.text };
  if (data?.toast?.text) {
    const type = (data.toast.type ?? "error") as ReplayOutcome["type"];
    return { ok: type === "success", type, text: data.toast.text };
  }
  const problems = formProblems(data?.result);
  if (problems.length > 0) return { ok: false, type: "error", text: problems.join(" ") };
  if (response.status >= 400)
    return { ok: false, type: "error", text: messages.httpError(response.status, response.statusText) };
  return toast
    ? { ok: toast.type === "success", type: toast.type, text: toast.text }
    : { ok: true, type: "success", text: "" };
}

/** The messages of a Conform reply (`submission.reply()`): form errors, then field errors. */
function formProblems(reply: unknown): string[] {
  const error = (reply as { error?: Record<string, string[] | null> | null } | undefined)?.error;
  if (!error) return [];
  const texts: string[] = [];
  for (const list of Object.values(error)) texts.push(...(list ?? []));
  return [...new Set(texts)];
}
