import type { NotificationItem } from "#contract/entities.ts";
import { messages } from "#app/lib/messages.ts";

/** docs/product.md#screens-notifications: the notifications panel filters. */
export const NOTIFICATION_FILTERS = ["all", "unread", "trade", "system"] as const;
export type NotificationFilter = (typeof NOTIFICATION_FILTERS)[number];

export const FILTER_LABELS: Record<NotificationFilter, string> = {
  all: "All",
  unread: "Unread",
  trade: "Trade",
  system: "System",
};

export function parseFilter(value: string | null | undefined): NotificationFilter {
  return (NOTIFICATION_FILTERS as readonly string[]).includes(value ?? "") ? (value as NotificationFilter) : "all";
}

/** docs/product.md#entities-notification: trade, alert and success keep their type; anything else is system. */
export function notificationKind(type: string): "trade" | "alert" | "success" | "system" {
  return type === "trade" || type === "alert" || type === "success" ? type : "system";
}

export function filterNotifications(items: NotificationItem[], filter: NotificationFilter): NotificationItem[] {
  switch (filter) {
    case "all":
      return items;
    case "unread":
      return items.filter((i) => i.read === 0);
    case "trade":
      return items.filter((i) => notificationKind(i.notification.type) === "trade");
    case "system":
      return items.filter((i) => notificationKind(i.notification.type) === "system");
  }
}

/** How an unread-count request failed, in the four cases docs/product.md#errors-notifications tells apart. */
export type CountFailure =
  | { kind: "response"; message?: string | undefined }
  | { kind: "no-response" }
  | { kind: "setup"; message: string }
  | { kind: "other" };

/** docs/product.md#errors-notifications: the count-fetch failure toast. */
export function countErrorText(failure: CountFailure): string {
  switch (failure.kind) {
    case "response":
      return messages.countFailedWithResponse(failure.message);
    case "no-response":
      return messages.countNoResponse;
    case "setup":
      return messages.countSetupFailed(failure.message);
    case "other":
      return messages.countUnexpected;
  }
}

/**
 * docs/product.md#errors-ai, shared by the toggles: 404 'Not found', 403 'Not authorized to
 * perform this action', otherwise the toggle's own fallback text.
 */
export function toggleErrorText(status: number | undefined, fallback: string): string {
  if (status === 404) return messages.notFound;
  if (status === 403) return messages.notAuthorizedAction;
  return fallback;
}
