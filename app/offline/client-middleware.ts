import {
  data,
  isRouteErrorResponse,
  redirectDocument,
  type DataStrategyResult,
  type MiddlewareFunction,
} from "react-router";
import { toast as showToast } from "#app/lib/toast.ts";
import type { ActionReply } from "#app/lib/action-reply.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { offlineAnswer } from "./protocol.ts";

/** What an action answers when the network failed: a reply with a toast, and nothing else changed. */
interface OfflineReply extends ActionReply {
  offline: true;
  queued: boolean;
}

/**
 * Root client middleware: turns the service worker's "offline" answers (app/offline/protocol.ts) into
 * something each screen already handles.
 *
 * - A form posted while offline (or lost in transit) gets an action reply `{ ok, toast }` with
 *   status 503: the page stays with every typed value (no data is reloaded), and the toast says
 *   whether the change waits in the outbox (`ok: true`: it will be made) or was not sent.
 * - A screen whose data has no saved copy is loaded as a document instead: the worker answers
 *   its saved page, or the page saying it was not saved here.
 */
export const offlineClientMiddleware: MiddlewareFunction<Record<string, DataStrategyResult>> = async (
  { request },
  next,
) => {
  const results = await next();
  for (const [routeId, outcome] of Object.entries(results)) {
    if (outcome.type !== "error" || !isRouteErrorResponse(outcome.result) || outcome.result.status !== 503) continue;
    const offline = offlineAnswer(outcome.result.data);
    if (!offline) continue;
    if (request.method === "GET") {
      const url = new URL(request.url);
      throw redirectDocument(url.pathname + url.search);
    }
    const text = offline.queued
      ? offline.duplicate
        ? messages.changeAlreadyQueued(offline.label ?? "This change")
        : messages.changeQueued(offline.label ?? "This change")
      : messages.notSentOffline;
    const reply: OfflineReply = {
      // A change in the outbox counts as made (dialogs close, reorder mode ends; lists show it as
      // made, app/offline/use-as-queued.ts); one not sent leaves the screen as it was.
      ok: offline.queued,
      offline: true,
      queued: offline.queued,
      toast: { id: crypto.randomUUID(), type: offline.queued ? "info" : "warning", text, autoClose: TOAST_MS.app },
    };
    // Screens that show their reply's toast use the same id, so it shows once.
    showToast(text, { type: reply.toast.type, autoClose: reply.toast.autoClose, toastId: reply.toast.id });
    results[routeId] = { type: "data", result: data(reply, { status: 503 }) };
  }
  return results;
};
