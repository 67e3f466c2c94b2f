import type { Href, HrefWithSearch } from "#app/lib/href.ts";
import { Form, Link, useNavigation } from "react-router";
import type { NotificationItem } from "#contract/entities.ts";
import { isSitePath } from "#contract/site-path.ts";
import { formatNotificationAge } from "#app/lib/format.ts";
import {
  FILTER_LABELS,
  filterNotifications,
  NOTIFICATION_FILTERS,
  notificationKind,
  type NotificationFilter,
} from "#app/routes/profile/notifications.ts";
import { Modal } from "#app/components/modal.tsx";
import { ChevronRightIcon } from "#app/components/icons.tsx";
import { PROFILE_INTENT } from "#app/routes/profile/intents.ts";

/**
 * docs/product.md#screens-notifications, reached by URL (/profile?panel=notifications&filter=…) so every
 * action works without JavaScript; with it, a modal dialog (focus kept inside, Escape closes).
 * Closing returns to /profile, whose loader fetches the unread count again.
 */
export function NotificationsPanel({
  items,
  error,
  filter,
  now,
}: {
  items: NotificationItem[];
  error: string | null;
  filter: NotificationFilter;
  /** The server's clock when the list was loaded, so ages read the same before and after hydration. */
  now: string;
}) {
  const navigation = useNavigation();
  const here = `/profile?panel=notifications${filter === "all" ? "" : `&filter=${filter}`}` satisfies HrefWithSearch;
  const shown = filterNotifications(items, filter);
  const unread = items.filter((i) => i.read === 0).length;
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent");

  return (
    <Modal title="Notifications" closeTo={"/profile" satisfies Href} className="modal--sheet notifications">
      <nav className="notifications__filters" aria-label="Filter notifications">
        {NOTIFICATION_FILTERS.map((f) => (
          <Link
            key={f}
            to={`/profile?panel=notifications${f === "all" ? "" : `&filter=${f}`}` satisfies HrefWithSearch}
            replace
            preventScrollReset
            className="chip"
            aria-current={f === filter ? "true" : undefined}
          >
            {FILTER_LABELS[f]}
            {f === "unread" && unread > 0 ? <span className="chip__count">{unread}</span> : null}
          </Link>
        ))}
      </nav>
      <div className="notifications__actions">
        <Form method="post" action={here} preventScrollReset replace>
          <button
            className="text-button"
            type="submit"
            name="intent"
            value={PROFILE_INTENT.markAllRead}
            disabled={unread === 0 || busy === "mark-all-read"}
          >
            Mark all read
          </button>
        </Form>
        <Form method="post" action={here} preventScrollReset replace>
          <button
            className="text-button text-button--danger"
            type="submit"
            name="intent"
            value={PROFILE_INTENT.clearAll}
            disabled={items.length === 0 || busy === "clear-all"}
          >
            Clear all
          </button>
        </Form>
      </div>
      <div className="notifications__body">
        {error ? (
          <p className="notifications__error" role="alert">
            {error}
          </p>
        ) : shown.length === 0 ? (
          <p className="notifications__empty">
            {filter === "all"
              ? "You have no notifications."
              : `No ${FILTER_LABELS[filter].toLowerCase()} notifications.`}
          </p>
        ) : (
          <ul className="notifications__list" aria-label={`${FILTER_LABELS[filter]} notifications`}>
            {shown.map((item) => (
              <li key={item.id}>
                <NotificationRow item={item} action={here} now={now} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}

function NotificationRow({ item, action, now }: { item: NotificationItem; action: string; now: string }) {
  const kind = notificationKind(item.notification.type);
  const unread = item.read === 0;
  const content = (
    <>
      <span className={`notification__dot notification__dot--${kind}`} aria-hidden="true" />
      <span className="notification__text">
        <span className="notification__title">
          {item.notification.title}
          {unread ? <span className="visually-hidden"> (unread)</span> : null}
        </span>
        <span className="notification__body">{item.notification.body}</span>
        <span className="notification__meta">
          <span className={`tag tag--${kind}`}>{kind}</span>
          {item.notification.action_required === 1 ? <span className="tag tag--action">Action required</span> : null}
          <time dateTime={item.created_at}>{formatNotificationAge(item.created_at, new Date(now))}</time>
        </span>
      </span>
    </>
  );
  return (
    <article className={`notification${unread ? " notification--unread" : ""}`}>
      {unread ? (
        // docs/product.md#screens-notifications: tapping an unread item marks it read.
        <Form method="post" action={action} preventScrollReset replace className="notification__form">
          <input type="hidden" name="id" value={item.id} />
          <button
            type="submit"
            name="intent"
            value={PROFILE_INTENT.markRead}
            className="notification__main"
            title="Mark as read"
          >
            {content}
          </button>
        </Form>
      ) : (
        <div className="notification__main">{content}</div>
      )}
      {isSitePath(item.notification.url) ? (
        <Link to={item.notification.url} className="notification__open" aria-label={`Open: ${item.notification.title}`}>
          <ChevronRightIcon />
        </Link>
      ) : null}
    </article>
  );
}
