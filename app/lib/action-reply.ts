/**
 * Lists act in place with JavaScript (a fetcher gets `{ ok, toast }` and the page stays where it
 * is) and by post-redirect-get without it (the toast rides a flash cookie). A form tells the two
 * apart with this hidden field, rendered only once React runs in the browser.
 */
export const ENHANCED_FIELD = "_js";

export interface ReplyToast {
  id: string;
  type: "success" | "error" | "info" | "warning";
  text: string;
  autoClose: number;
}

export interface ActionReply {
  ok: boolean;
  toast: ReplyToast;
}

export function isActionReply(value: unknown): value is ActionReply {
  return typeof value === "object" && value !== null && "ok" in value && "toast" in value;
}
