import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, Form, Link, redirect, useActionData, useFetcher, useLoaderData } from "react-router";
import { toast } from "#app/lib/toast.ts";
import type { Route } from "./+types/profile";
import * as calls from "#contract/calls.ts";
import { CONFIG_KEYS, configIsOn } from "#contract/constants.ts";
import type { ConfigKey, NotificationItem } from "#contract/entities.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { countErrorText, parseFilter, toggleErrorText, type CountFailure } from "#app/lib/notifications.ts";
import { ACCOUNT_FACTS, SUPPORT_DELAY_MS, TRADING_PREFERENCES } from "#app/lib/profile.ts";
import { SupportSchema } from "#app/lib/support-schemas.ts";
import { isAdmin, requireUser, userCall } from "#app/server/auth.server.ts";
import { callProvider, ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { loadAlertSettings, saveAlertSettingsAction } from "#app/server/alert-settings.server.ts";
import { ALERT_SETTINGS_TEXT } from "#app/lib/alert-settings.ts";
import { AlertSettingsFields } from "#app/components/alert-settings-form.tsx";
import { BellIcon, ChevronRightIcon, LogoutIcon } from "#app/components/icons.tsx";
import { NotificationsPanel } from "#app/components/notifications-panel.tsx";
import { ProfilePhoto } from "#app/components/profile-photo.tsx";
import { PushToggle } from "#app/components/push-toggle.tsx";
import { SupportDialog } from "#app/components/support-dialog.tsx";
import { Switch } from "#app/components/switch.tsx";
import packageJson from "../../package.json";

const CONFIG_LABELS: Record<ConfigKey, { title: string; hint: string; failed: string }> = {
  auto_refresh_enabled: {
    title: "Auto Refresh",
    hint: "Refresh stock prices automatically",
    failed: messages.toggleAutoRefreshFailed,
  },
  auto_trade_recommendation_generation_enabled: {
    title: "Auto Trade Recommendations",
    hint: "Generate trade recommendations automatically",
    failed: messages.toggleTradeRecommendationsFailed,
  },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const url = new URL(request.url);
  const panelOpen = url.searchParams.get("panel") === "notifications";
  const admin = isAdmin(user);

  const [unread, notifications, config, publicKey, alertSettings] = await Promise.all([
    unreadCount(context, user.id),
    panelOpen ? notificationList(context, user.id) : null,
    admin ? configValues(context) : null,
    callProvider(calls.pushPublicKey).then(
      (r) => r.public_key,
      () => null,
    ),
    loadAlertSettings(context),
  ]);

  return {
    user: { id: user.id, name: user.name, email: user.email },
    admin,
    unread,
    panel: panelOpen ? { ...notifications!, filter: parseFilter(url.searchParams.get("filter")) } : null,
    supportOpen: url.searchParams.get("dialog") === "support",
    config,
    publicKey,
    alertSettings,
    appVersion: packageJson.version,
    now: new Date().toISOString(),
  };
}

type Context = Route.LoaderArgs["context"];

/** docs/product.md#errors-notifications: the unread count, or the count-fetch failure text for its toast. */
async function unreadCount(context: Context, userId: number): Promise<{ count: number; error: string | null }> {
  try {
    const res = await userCall(context, calls.unreadCount, { params: { userId } });
    return { count: res.unread_count, error: null };
  } catch (error) {
    if (error instanceof Response) throw error;
    let failure: CountFailure;
    if (error instanceof ProviderError) {
      failure = error.status === 0 ? { kind: "no-response" } : { kind: "response", message: error.detail };
    } else if (error instanceof Error) failure = { kind: "setup", message: error.message };
    else failure = { kind: "other" };
    return { count: 0, error: countErrorText(failure) };
  }
}

async function notificationList(
  context: Context,
  userId: number,
): Promise<{ items: NotificationItem[]; error: string | null }> {
  try {
    return { items: await userCall(context, calls.listNotifications, { params: { userId } }), error: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { items: [], error: messages.fetchNotificationsFailed };
  }
}

async function configValues(context: Context): Promise<Record<ConfigKey, boolean | null>> {
  const entries = await Promise.all(
    CONFIG_KEYS.map(async (key) => {
      try {
        const res = await userCall(context, calls.getConfig, { params: { key } });
        return [key, configIsOn(res.value)] as const;
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        return [key, null] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Record<ConfigKey, boolean | null>;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const url = new URL(request.url);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  // Back to the same view (panel and filter kept), so each action also works without JavaScript.
  // (request.url is /profile.data when React Router posts from the browser: name the page itself.)
  const view = new URLSearchParams();
  for (const key of ["panel", "filter"]) {
    const value = url.searchParams.get(key);
    if (value) view.set(key, value);
  }
  const back = view.size ? `/profile?${view}` : "/profile";

  const fail = (text: string) => redirectWithToast(back, { type: "error", text, autoClose: TOAST_MS.app });
  const ok = (text: string) => redirectWithToast(back, { type: "success", text, autoClose: TOAST_MS.app });

  switch (intent) {
    case "mark-read": {
      const id = Number(formData.get("id"));
      try {
        if (!Number.isInteger(id) || id <= 0) throw new ProviderError(422, "Unprocessable Entity");
        await userCall(context, calls.markNotificationRead, { params: { id } });
        return redirect(back);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        return fail(messages.markReadFailed);
      }
    }
    case "mark-all-read":
      try {
        await userCall(context, calls.markAllNotificationsRead, { params: { userId: user.id } });
        return ok(messages.allMarkedRead);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        return fail(messages.markAllReadFailed);
      }
    case "clear-all":
      try {
        await userCall(context, calls.clearAllNotifications, { params: { userId: user.id } });
        return ok(messages.allCleared);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        return fail(messages.clearFailed);
      }
    case "config": {
      const key = String(formData.get("key") ?? "");
      const value = formData.get("value") === "1" ? "1" : "0";
      const known = (CONFIG_KEYS as readonly string[]).includes(key) ? (key as ConfigKey) : null;
      const fallback = known ? CONFIG_LABELS[known].failed : messages.unexpected;
      if (!isAdmin(user)) return fail(messages.noSystemSettingsPermission);
      if (!known) return fail(fallback);
      try {
        await userCall(context, calls.setConfig, { params: { key: known }, body: { value } });
        return redirect(back);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        return fail(toggleErrorText(error.status, fallback));
      }
    }
    case "alert-settings":
      return saveAlertSettingsAction(context, formData);
    case "support": {
      const submission = parseWithZod(formData, { schema: SupportSchema });
      if (submission.status !== "success") return data({ support: submission.reply() }, { status: 400 });
      try {
        // docs/product.md#calls-other: the support form only simulates a submission, after 1 s, with no call.
        await new Promise((resolve) => setTimeout(resolve, SUPPORT_DELAY_MS));
        return redirectWithToast("/profile", {
          type: "success",
          text: messages.supportSubmitted,
          autoClose: TOAST_MS.app,
        });
      } catch {
        return data({ support: submission.reply({ formErrors: [messages.supportFailed] }) }, { status: 500 });
      }
    }
    default:
      return fail(messages.unexpected);
  }
}

export default function Profile() {
  const { user, admin, unread, panel, supportOpen, config, publicKey, alertSettings, appVersion, now } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();

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
          to="/profile?panel=notifications"
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
              <Link to="/track-record" className="action-list__item">
                <span>Track record of recommendations</span>
                <ChevronRightIcon aria-hidden="true" />
              </Link>
            </li>
          </ul>
        </Card>

        <Card title="Security">
          <ActionList labels={["Change Password", "Two-Factor Authentication", "Privacy Settings"]} />
        </Card>

        <Card title="Help & Support">
          <ul className="action-list">
            <li>
              <Link to="/profile?dialog=support" replace preventScrollReset className="action-list__item">
                <span>Contact Support</span>
                <ChevronRightIcon aria-hidden="true" />
              </Link>
            </li>
          </ul>
          <ActionList labels={["FAQ & Help Center", "Trading Guide"]} />
        </Card>

        <Card title="Quick Actions">
          <ActionList labels={["View Statements", "Tax Documents", "Account Settings"]} />
        </Card>

        <Form method="post" action="/logout" className="profile-logout">
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

function Card({
  title,
  badge,
  id,
  children,
}: {
  title: string;
  badge?: string;
  id?: string;
  children: React.ReactNode;
}) {
  const headingId = `card-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section className="card" aria-labelledby={headingId} id={id}>
      <h2 id={headingId} className="card__title">
        {title}
        {badge ? <span className="badge">{badge}</span> : null}
      </h2>
      {children}
    </section>
  );
}

function Facts({ rows }: { rows: ReadonlyArray<readonly [string, string]> }) {
  return (
    <dl className="facts">
      {rows.map(([term, value]) => (
        <div key={term} className="facts__row">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** docs/product.md#screens-profile: buttons whose actions are not part of the product yet. */
function ActionList({ labels }: { labels: string[] }) {
  return (
    <ul className="action-list">
      {labels.map((label) => (
        <li key={label}>
          <button
            type="button"
            className="action-list__item"
            onClick={() => toast.info(`${label} is coming soon.`, { autoClose: TOAST_MS.app, toastId: label })}
          >
            <span>{label}</span>
            <ChevronRightIcon aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * An admin switch (docs/product.md#states-admin): it flips only after the PATCH succeeds, because its state is
 * the loader's value, read again after the action.
 */
function ConfigToggle({ configKey, on }: { configKey: ConfigKey; on: boolean | null }) {
  const fetcher = useFetcher();
  const label = CONFIG_LABELS[configKey];
  const busy = fetcher.state !== "idle";
  const id = `config-${configKey}`;
  return (
    <fetcher.Form method="post" action="/profile" className="setting" preventScrollReset>
      <input type="hidden" name="intent" value="config" />
      <input type="hidden" name="key" value={configKey} />
      <input type="hidden" name="value" value={on ? "0" : "1"} />
      <div className="setting__text">
        <span id={id} className="setting__title">
          {label.title}
        </span>
        <span className="setting__hint">{on === null ? "Unavailable right now" : label.hint}</span>
      </div>
      <Switch type="submit" checked={on === true} busy={busy} disabled={on === null || busy} aria-labelledby={id} />
    </fetcher.Form>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Profile · PutSeller" }];
