import { useEffect } from "react";
import { toast as showToast } from "#app/lib/toast.ts";
import { isActionReply } from "#app/lib/action-reply.ts";

/** Shows the toast of a fetcher's reply once (the toast id keeps it from showing twice). */
export function useReplyToast(reply: unknown): void {
  useEffect(() => {
    if (!isActionReply(reply)) return;
    const { id, type, text, autoClose } = reply.toast;
    showToast(text, { type, autoClose, toastId: id });
  }, [reply]);
}
