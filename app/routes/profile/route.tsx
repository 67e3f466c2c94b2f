import { lazy, useEffect } from "react";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { toast } from "#app/lib/toast.ts";
import type { Route } from "./+types/route";
import type { Href, HrefWithSearch } from "#app/lib/href.ts";
import type { ConfigKey } from "#contract/entities.ts";
import { TOAST_MS } from "#app/lib/messages.ts";
import { ACCOUNT_FACTS, TRADING_PREFERENCES } from "./constants.ts";
import { COMING_SOON } from "./coming-soon.ts";
import { CONFIG_LABELS } from "./system-settings.ts";
import { loadProfile, profileAction } from "./server.ts";
import { ALERT_SETTINGS_TEXT } from "./alert-settings.ts";
import { AlertSettingsFields } from "./components/alert-settings-form.tsx";

import { ConfigToggle } from "./components/config-toggle.tsx";
import { BellIcon, ChevronRightIcon, LogoutIcon } from "#app/components/icons.tsx";
import { ActionList, Card, Facts } from "./components/profile-card.tsx";
import { ProfilePhoto } from "./components/profile-photo.tsx";
import { PushToggle } from "./components/push-toggle.tsx";

/**
 * The notifications panel and the support dialog open from the URL (ADR 0005) and are rarely on
 * screen, so their code is not in the profile's first load (ADR 0052). No Suspense boundary on
 * purpose: the server renders an open one into the page itself (so it works without JavaScript),
 * and hydration waits for its code instead of showing a fallback. Once the page is idle their code
 * is fetched, so opening one later waits for its data only, not for its data and then its code.
 */
const loadNotificationsPanel = () => import("./components/notifications-panel.tsx");
const loadSupportDialog = () => import("./components/support-dialog.tsx");
const NotificationsPanel = lazy(() => loadNotificationsPanel().then((m) => ({ default: m.NotificationsPanel })));
const SupportDialog = lazy(() => loadSupportDialog().then((m) => ({ default: m.SupportDialog })));
/** The capital plan's form (ADR 0081): on screen, but its code kept out of the profile's first load the same way. */
const CapitalSettingsCard = lazy(() =>
  import("./components/capital-settings-form.tsx").then((m) => ({ default: m.CapitalSettingsCard })),
);

function useDialogsFetchedWhenIdle() {
  useEffect(() => {
    const fetchBoth = () => void Promise.all([loadNotificationsPanel(), loadSupportDialog()]).catch(() => {});
    // Safari has no requestIdleCallback: a few seconds after the page settles serve as well.
    if ("requestIdleCallback" in window) {
      const id = requestIdleCallback(fetchBoth, { timeout: 5_000 });
      return () => cancelIdleCallback(id);
    }
    const timer = setTimeout(fetchBoth, 3_000);
    return () => clearTimeout(timer);
  }, []);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadProfile(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return profileAction(request, context);
}

export default function Profile() {
  const {
    user,
    admin,
    unread,
    panel,
    supportOpen,
    config,
    publicKey,
    alertSettings,
    capitalSettings,
    appVersion,
    now,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  useDialogsFetchedWhenIdle();

  // docs/product.md#errors-notifications: a failed count fetch is told in a toast (and inline for browsers without JavaScript).
  useEffect(() => {
    if (unread.error) toast.error(unread.error, { autoClose: TOAST_MS.app, toastId: "unread-count" });
  }, [unread.error]);

  return (
    <>
      <header className="page-header profile-header">
        <div className="profile-header__greeting">
          <p className="profile-header__hello">Welcome back,</p>
          <h1>{user.name}</h1>
        </div>
        <Link
          to={"/profile?panel=notifications" satisfies HrefWithSearch}
          replace
          preventScrollReset
          className="icon-button bell"
          aria-label="Open notifications"
        >
          <BellIcon />
          {unread.count > 0 ? (
            <span className="bell__badge" aria-label={`${unread.count} unread`}>
              {unread.count > 99 ? "99+" : unread.count}
            </span>
          ) : null}
        </Link>
      </header>
      {unread.error ? (
        <noscript>
          <p className="list-error" role="alert">
            {unread.error}
          </p>
        </noscript>
      ) : null}

      <div className="profile">
        <section className="profile-hero" aria-label="Your profile">
          <ProfilePhoto name={user.name} />
          <div>
            <p className="profile-hero__name">{user.name}</p>
            <p className="profile-hero__email">{user.email}</p>
          </div>
        </section>

        <Card title="Account Information">
          <Facts rows={ACCOUNT_FACTS} />
        </Card>

        <Card title="Notifications" id="push">
          <PushToggle userId={user.id} publicKey={publicKey} appVersion={appVersion} />
        </Card>

        <Card title={ALERT_SETTINGS_TEXT.title} id="alerts">
          <AlertSettingsFields
            settings={alertSettings}
            lastResult={actionData && "alertSettings" in actionData ? actionData.alertSettings : undefined}
          />
        </Card>

        <CapitalSettingsCard
          settings={capitalSettings}
          lastResult={actionData && "capitalSettings" in actionData ? actionData.capitalSettings : undefined}
        />

        {admin && config ? (
          <Card title="System Settings" badge="Admin">
            {(Object.keys(CONFIG_LABELS) as ConfigKey[]).map((key) => (
              <ConfigToggle key={key} configKey={key} on={config[key]} />
            ))}
          </Card>
        ) : null}

        <Card title="Trading Preferences">
          <Facts rows={TRADING_PREFERENCES} />
          <ul className="action-list">
            <li>
              <Link to={"/track-record" satisfies Href} className="action-list__item">
                <span>Track record of recommendations</span>
                <ChevronRightIcon aria-hidden="true" />
              </Link>
            </li>
          </ul>
        </Card>

        <Card title="Security">
          <ActionList labels={COMING_SOON.security} />
        </Card>

        <Card title="Help & Support">
          <ul className="action-list">
            <li>
              <Link
                to={"/profile?dialog=support" satisfies HrefWithSearch}
                replace
                preventScrollReset
                className="action-list__item"
              >
                <span>Contact Support</span>
                <ChevronRightIcon aria-hidden="true" />
              </Link>
            </li>
          </ul>
          <ActionList labels={COMING_SOON.help} />
        </Card>

        <Card title="Quick Actions">
          <ActionList labels={COMING_SOON.quick} />
        </Card>

        <Form method="post" action={"/logout" satisfies Href} className="profile-logout">
          <button type="submit" className="button button--danger">
            <LogoutIcon />
            Logout
          </button>
        </Form>
      </div>

      {panel ? <NotificationsPanel items={panel.items} error={panel.error} filter={panel.filter} now={now} /> : null}
      {supportOpen ? (
        <SupportDialog lastResult={actionData && "support" in actionData ? actionData.support : undefined} />
      ) : null}
    </>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Profile · PutSeller" }];
