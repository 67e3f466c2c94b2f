import { data } from "react-router";
import { ENHANCED_FIELD, type ActionReply } from "#app/lib/action-reply.ts";
import { redirectWithToast, Toast, type ToastInput } from "./toast.server.ts";
import { ProviderError } from "./provider.server.ts";
import { messages } from "#app/lib/messages.ts";

/**
 * Answers a list action: JSON for a fetcher (JavaScript on, the page stays put and shows the
 * toast itself) or a redirect with a flash toast for a plain form post (JavaScript off).
 */
export async function replyWithToast(
  formData: FormData,
  { ok, toast, redirectTo, status }: { ok: boolean; toast: ToastInput; redirectTo: string; status?: number },
) {
  const parsed = Toast.parse(toast);
  if (formData.get(ENHANCED_FIELD) === "1") {
    const reply: ActionReply = {
      ok,
      toast: { id: parsed.id, type: parsed.type, text: parsed.text, autoClose: parsed.autoClose },
    };
    return data(reply, { status: status ?? (ok ? 200 : 400) });
  }
  return redirectWithToast(redirectTo, parsed);
}

/**
 * docs/product.md#errors-lists for reorder, add-to-watchlist and add-stock failures: an HTTP error shows the
 * server's detail as a warning; another Error shows 'Error: {message}'; else 'An unknown error occurred'.
 */
export function listFailureToast(error: unknown): { type: "warning" | "error"; text: string } {
  if (error instanceof ProviderError && error.status > 0) {
    return { type: "warning", text: error.detail ?? messages.httpError(error.status, error.statusText) };
  }
  if (error instanceof Error) return { type: "error", text: messages.errorWithMessage(error.message) };
  return { type: "error", text: messages.unknownError };
}
